/* test_mpi: the pure parts of fsscan/mpi/mpi.h, without mpirun: the
 * zigzag codes of signed totals (0, -1, 1, -2 ... to 0, 1, 2, 3 ...) at
 * the limits of 64 and 128 bits, and a 128-bit total on the wire (two
 * varints, the low half first: one byte for the high half of any total
 * below 2^64), against codes and lengths worked out here. */
#include <stdint.h>

#include "mpi/mpi.h"
#include "tap.h"

static void
zigzag64(void)
{
	static const struct {
		int64_t v;
		uint64_t z;
	} c[] = {
		{ 0, 0 }, { -1, 1 }, { 1, 2 }, { -2, 3 }, { 2, 4 },
		{ INT64_MAX, UINT64_MAX - 1 }, { INT64_MIN, UINT64_MAX },
		{ INT64_MIN + 1, UINT64_MAX - 2 },
	};

	for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
		is_u64(zigzag(c[i].v), c[i].z, "zigzag %jd", (intmax_t)c[i].v);
		is_i64(unzigzag(c[i].z), c[i].v, "unzigzag %ju",
		    (uintmax_t)c[i].z);
	}
}

static void
zigzag_wide(void)
{
	const i128 max = (i128)(~(u128)0 >> 1), min = -max - 1;
	const u128 all = ~(u128)0;

	ok(zigzag128(0) == 0 && zigzag128(-1) == 1 && zigzag128(1) == 2,
	    "zigzag128: 0, -1, 1 are 0, 1, 2");
	ok(zigzag128(max) == all - 1, "zigzag128: 2^127 - 1 is 2^128 - 2");
	ok(zigzag128(min) == all, "zigzag128: -2^127 is 2^128 - 1");
	ok(unzigzag128(all - 1) == max && unzigzag128(all) == min,
	    "unzigzag128: the limits back");
	ok(unzigzag128(zigzag128((i128)INT64_MIN - 1)) == (i128)INT64_MIN - 1,
	    "zigzag128: -2^63 - 1, past 64 bits, back");
}

/* put v, its length, and get it back from a cursor over the bytes. */
static void
wire(u128 v, size_t len, const char *what)
{
	struct iobuf b = { 0 };
	struct cursor c;
	u128 got;

	mpi_put_u128(&b, v);
	is_u64(b.len, len, "wire %s: %zu bytes", what, len);
	c = (struct cursor){ b.p, b.p + b.len, NULL };
	got = mpi_get_u128(&c);
	ok(c.err == NULL && got == v && c.p == c.end,
	    "wire %s: read back whole", what);
	c = (struct cursor){ b.p, b.p + b.len - 1, NULL };
	(void)mpi_get_u128(&c);
	ok(c.err != NULL, "wire %s: one byte short is an error", what);
	iobuf_free(&b);
}

int
main(void)
{
	zigzag64();
	zigzag_wide();
	wire(0, 2, "0");
	wire(127, 2, "127");
	wire(128, 3, "128");
	wire(UINT64_MAX, 11, "2^64 - 1");	/* 10 bytes, then 0 */
	wire((u128)1 << 64, 2, "2^64");		/* 0, then 1: a byte each */
	wire(~(u128)0, 20, "2^128 - 1");
	return tap_end();
}
