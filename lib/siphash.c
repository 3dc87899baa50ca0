/*
 * siphash: SipHash-2-4, written from the paper's description (section
 * 2): four 64-bit words of state, two SipRounds per 8-byte message word,
 * four after the final word, which holds the message's last bytes and
 * its length modulo 256 in its top byte.
 */
#include <assert.h>

#include "siphash.h"

#define ROTL(x, b)	(((x) << (b)) | ((x) >> (64 - (b))))

struct sipstate {
	uint64_t v0, v1, v2, v3;
};

static void
sipround(struct sipstate *s)
{
	s->v0 += s->v1;
	s->v1 = ROTL(s->v1, 13);
	s->v1 ^= s->v0;
	s->v0 = ROTL(s->v0, 32);
	s->v2 += s->v3;
	s->v3 = ROTL(s->v3, 16);
	s->v3 ^= s->v2;
	s->v0 += s->v3;
	s->v3 = ROTL(s->v3, 21);
	s->v3 ^= s->v0;
	s->v2 += s->v1;
	s->v1 = ROTL(s->v1, 17);
	s->v1 ^= s->v2;
	s->v2 = ROTL(s->v2, 32);
}

/* n bytes (at most 8) at p as a little-endian word, whatever the host's
 * byte order. */
static uint64_t
le_word(const uint8_t *p, size_t n)
{
	uint64_t w = 0;

	for (size_t i = 0; i < n; i++)
		w |= (uint64_t)p[i] << (8 * i);
	return w;
}

/* One message word: c = 2 SipRounds. */
static void
compress(struct sipstate *s, uint64_t m)
{
	s->v3 ^= m;
	sipround(s);
	sipround(s);
	s->v0 ^= m;
}

uint64_t
siphash_24(const uint8_t key[SIPHASH_KEYLEN], const void *p, size_t len)
{
	const uint8_t *b = p;
	uint64_t k0 = le_word(key, 8), k1 = le_word(key + 8, 8);
	struct sipstate s = {
		k0 ^ 0x736f6d6570736575ULL, k1 ^ 0x646f72616e646f6dULL,
		k0 ^ 0x6c7967656e657261ULL, k1 ^ 0x7465646279746573ULL,
	};
	size_t i;

	assert(key != NULL && (p != NULL || len == 0));
	for (i = 0; i + 8 <= len; i += 8)
		compress(&s, le_word(b + i, 8));
	compress(&s, le_word(b + i, len - i) | (uint64_t)(len & 0xff) << 56);
	/* Finalization: d = 4 SipRounds. */
	s.v2 ^= 0xff;
	for (int r = 0; r < 4; r++)
		sipround(&s);
	return s.v0 ^ s.v1 ^ s.v2 ^ s.v3;
}
