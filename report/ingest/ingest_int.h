/*
 * ingest_int: what the parts of `iocensus ingest` hand each other.
 *
 *   ingest_src.c    paths, directories, archives -> struct src items
 *                   (ingest_archive.c members, ingest_gunzip.c inflating)
 *   ingest_pipe.c   decoder threads, results back in input order
 *   ingest_read.c   a log's bytes into memory, zero runs counted
 *   ingest_member.c an archive member as a stream (ingest_archive.c)
 *   ingest_quar.c   samples with implausible times set apart
 *   ingest_log.c    a log's bytes -> per-device sample arrays (decoders)
 *   ingest_prep.c   sample arrays -> encoded hour chunks (decoders)
 *   ingest_store.c  one source -> io_* tables, one transaction (writer)
 *   ingest.c        the driver: messages, result tables, roll-up
 */
#ifndef IOCENSUS_INGEST_INT_H
#define IOCENSUS_INGEST_INT_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include <archive.h>
#include <sqlite3.h>

#include "diskstats.h"
#include "chunk/chunk.h"
#include "iolog/iolog.h"
#include "ingest_unpack_int.h"

enum src_kind {
	SRC_LOG,	/* a log to decode and store */
	SRC_SKIP,	/* inside a directory or archive: not a log;
			   `error` says why */
	SRC_LINK,	/* inside a directory: a symlink, not followed */
	SRC_ERROR,	/* unreadable: `error` says why (errno text) */
	SRC_DAMAGE	/* a damaged archive: dmg[] says where */
};

struct src_damage {
	uint64_t offset;	/* compressed byte offset */
	char *reason;
	int truncated;		/* the log just ends: a note only */
};

struct src_host {
	char name[256];
	uint32_t interval_ms;	/* largest header interval seen */
};

/* One hour of a device's samples, s[first .. first + n), as the chunk
 * row the writer inserts when the device has no stored chunk that hour
 * (the usual case); `encoded` is 0 when the hour needs the writer's
 * general path anyway (more than IOCHUNK_MAX samples, or a value r127
 * cannot hold). The row's bytes are in src.enc. */
struct src_chunk {
	int64_t t0;
	size_t first, n;
	int encoded;
	struct iochunk_enc enc;
};

/* One identity of a device, as a device table gave it (the attributes
 * wwid, serial, model, slot; "" where absent), and the times its
 * plausible samples span; `seen` is 0 while it has none. */
enum { IDENT_WWN, IDENT_SERIAL, IDENT_MODEL, IDENT_SLOT, IDENT_N };
struct src_ident {
	char *v[IDENT_N];
	int64_t first_ms, last_ms;
	int seen;
};

/* One device's samples, sorted by t_ms and without duplicates once the
 * decoder is done, and grouped into hours by ingest_prep_src(). */
struct src_dev {
	size_t host;		/* index into src.host */
	char name[DS_NAME_MAX];
	struct io_sample *s;
	size_t n, cap;
	struct io_sample *q;	/* quarantined: implausible times */
	size_t nq;
	int64_t first_ms, last_ms;	/* interval start / end extremes */
	struct src_chunk *ch;
	size_t nch;
	struct src_ident *id;	/* its identities, in the order first seen */
	size_t nid, idcap;
};

struct src {
	char *name;		/* path, or ARCHIVE:MEMBER */
	enum src_kind kind;
	int named;		/* given on the command line */
	/* input: a file to read (fd >= 0) or bytes; the decoder frees both */
	int fd;
	uint8_t *buf;
	size_t len;
	char *error;
	/* decoded */
	struct src_host *host;
	size_t nhost;
	struct src_dev *dev;
	size_t ndev, devcap;
	char *enc;		/* encoded chunk columns (src_chunk.enc) */
	size_t enclen;
	struct src_damage *dmg;
	size_t ndmg;
	uint64_t samples;	/* device-samples read (state OK) */
	uint64_t dups, conflicts;	/* repeated t_ms inside the source */
	uint64_t dropped;	/* values r127 cannot hold */
	uint64_t overflow;	/* samples past IOCHUNK_MAX in an hour */
	/* Plausible sample times, unix ms: an interval starting before
	 * ok_from_ms or ending after ok_to_ms is quarantined. */
	int64_t ok_from_ms, ok_to_ms;
	uint64_t quarantined;	/* samples quarantined */
	int damaged;		/* damage that is not a truncated tail */
	/* An archive member the archive breaks off inside: that it ends
	 * inside a frame is the archive's damage, reported there. */
	int cut;
};

struct src *ingest_item_new(const char *name, enum src_kind kind, int named);
void ingest_item_error(struct src *s, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Not a log, found inside a directory or archive: skipped, and why. */
void ingest_item_skip(struct src *s, const char *why);
void ingest_item_damage(struct src *s, uint64_t offset, const char *reason,
    int truncated);
void ingest_item_free(struct src *s);
/* The memory a decoded item holds, about: what waits for the writer. */
size_t ingest_item_bytes(const struct src *s);

/* ingest_src.c: walk the paths in order, handing every item to emit
 * (which returns -1 to stop the walk). Never follows symlinks below a
 * named directory; archives are read with libarchive, member by member,
 * into memory. */
struct src_walk {
	int (*emit)(void *ctx, struct src *s);
	void *ctx;
	volatile sig_atomic_t *stop;
};
void ingest_src_walk(char *const *paths, size_t npaths, struct src_walk *w);

/* The walk in progress (ingest_src.c, ingest_archive.c). */
struct walker {
	struct src_walk *w;
	int stopped;
	struct unpack_budget budget;	/* the decoders of the archives
					 * open at once */
};
/* Hand s on (taken over); 0, or -1 once the walk must stop. */
int ingest_item_emit(struct walker *k, struct src *s);
/* Read fd as an archive if libarchive recognises it: 1 done (its members
 * handed on, or the archive reported as damaged), 0 not an archive (fd
 * rewound), -1 the rewind failed. maybe_log: gzip that breaks before an
 * archive header is not an archive (a decoder reports its damage). */
int ingest_archive_walk(struct walker *k, int fd, const char *name,
    int maybe_log);
/* What a file or member starting with buf[0 .. len) is (iolog_sniff),
 * a damaged or odd gzip file named *.iolog.gz counting as a log. */
enum iolog_kind ingest_sniff(const uint8_t *buf, size_t len, int more,
    const char *name);

/* ingest_member.c: the regular member an archive is at, as a stream
 * (holes of a sparse member read as zeros). Its first bytes are read
 * ahead and kept; while `keep` is set, everything handed out is kept
 * too (at most MEMBER_KEEP_MAX bytes; past it the member is `lost`: it
 * cannot be handed out again). */
#define MEMBER_KEEP_MAX ((size_t)16 << 20)
struct member {
	struct archive *a;
	uint8_t *buf;		/* kept bytes, from the member's start */
	size_t len, cap;
	size_t at;		/* kept bytes handed out so far */
	int keep, lost;
	const uint8_t *blk;	/* the rest of the block last read */
	size_t blklen;
	uint64_t hole;		/* zeros before blk */
	int64_t pos;		/* bytes of the member taken so far */
	int eof;
	int rc;			/* 1: the archive warned (a zip member's bad
				 * CRC or size), -1: it failed inside */
	uint64_t held_at;	/* MEMBER_OVER: where reading stopped */
};
enum member_end {
	MEMBER_WHOLE,		/* held to its end */
	MEMBER_OVER,		/* more than the limit: the rest is not read */
	MEMBER_BROKEN,		/* the archive fails inside it */
	MEMBER_NOMEM,		/* memory could not be had */
	MEMBER_LOST		/* its start was not kept */
};
void ingest_member_init(struct member *m, struct archive *a);
/* Read ahead until `want` bytes are kept, or the member ends. 0, or -1
 * when the archive fails inside it or they cannot be kept. */
int ingest_member_ahead(struct member *m, size_t want);
/* Nothing more to read (after ingest_member_ahead). */
int ingest_member_ended(const struct member *m);
/* libarchive's read callback over the member: the kept bytes, then the
 * rest (an archive inside an archive, walked as it is read). */
la_ssize_t ingest_member_read(struct archive *a, void *m, const void **buf);
/* Keep nothing more (it was an archive); what was kept goes once the
 * reader has moved past it. */
void ingest_member_unkept(struct member *m);
/* The whole member into s->buf (ingest_read.c: zero runs held as a
 * count), at most max bytes: the kept bytes, then the rest. */
enum member_end ingest_member_hold(struct member *m, struct src *s,
    uint64_t size_hint, size_t max);
void ingest_member_free(struct member *m);

/* ingest_read.c: a log's bytes gathered into s->buf, s->len, a run of
 * zeros longer than 64 KiB held as a count (written out only when data
 * follows it), at most `max` bytes stored. */
struct hold {
	size_t cap;		/* bytes allocated at s->buf */
	size_t run;		/* zeros at the end of the stored bytes */
	uint64_t held;		/* zeros after them, counted, not stored */
	size_t max;
};
/* Start with room for size_hint bytes (0: unknown). 0, or -1 (ENOMEM). */
int ingest_read_start(struct src *s, struct hold *h, uint64_t size_hint,
    size_t max);
/* Append n bytes, or n zeros (a hole). 0, or -1 with errno: ENOMEM, or
 * EFBIG when the bytes would pass h->max (those before it are stored). */
int ingest_read_add(struct src *s, struct hold *h, const void *p, size_t n);
int ingest_read_zeros(struct src *s, struct hold *h, uint64_t n);
/* Bytes taken so far, the held zeros included. */
uint64_t ingest_read_pos(const struct src *s, const struct hold *h);
/* s->fd's bytes into s->buf, s->len (no limit: a file's size is its own);
 * 0, or -1 with errno (ENOMEM when the file does not fit: this source
 * only). */
int ingest_read_file(struct src *s);

/* ingest_log.c: read the item's input and decode it (thread-safe). */
void ingest_log_decode(struct src *s);

/* ingest_ident.c: device identities (decoders). of: the index in d->id
 * of the identity table entry e gives d, added when new; SIZE_MAX when
 * e has none of its attributes. widen: identity k of d spans sample x
 * too. free: d's identities. */
size_t ingest_ident_of(struct src_dev *d, const struct iolog_dev *e);
void ingest_ident_widen(struct src_dev *d, size_t k,
    const struct io_sample *x);
void ingest_ident_free(struct src_dev *d);

/* ingest_quar.c: samples with implausible times. split: move those of
 * d (sorted, unique) to d->q, both sorted (decoders); plausible: does
 * x's whole interval lie in s's plausible times? */
void ingest_quar_split(struct src *s, struct src_dev *d);
int ingest_quar_plausible(const struct src *s, const struct io_sample *x);
/* A host's quarantined samples in a source: how many, the first and
 * last end (unix ms); n == 0 for none. */
struct quar_host {
	uint64_t n;
	int64_t first_ms, last_ms;
};
void ingest_quar_host(const struct src *s, size_t host, struct quar_host *q);

/* ingest_prep.c: group each device's samples into hours and encode each
 * hour's chunk row, so that the writer mostly just inserts (thread-safe;
 * after ingest_log_decode). */
void ingest_prep_src(struct src *s);
/* The hour (unix seconds) of the chunk holding a sample ending at t_ms. */
int64_t ingest_prep_hour(int64_t t_ms);

/* ingest_pipe.c: items decoded by nworkers threads, handed back in the
 * order they were put. put blocks while `cap` items are in flight, or
 * while items holding bytes in memory are and the item's would bring
 * them past max_bytes; it returns -1 once the pipe is aborted. A worker
 * starts no item but the writer's next while decoded items of max_decoded
 * bytes or more wait for the writer. get returns NULL after close and
 * the last item. */
struct pipe;
struct pipe *ingest_pipe_new(size_t nworkers, size_t cap, size_t max_bytes,
    size_t max_decoded);
int ingest_pipe_put(struct pipe *p, struct src *s);
void ingest_pipe_close(struct pipe *p);
struct src *ingest_pipe_get(struct pipe *p);
void ingest_pipe_abort(struct pipe *p);
/* Join the workers, free what is left. */
void ingest_pipe_free(struct pipe *p);

/* ingest_store.c: the writer. */
struct store;
struct store_stats {
	uint64_t new_samples, dups, conflicts, overflow;
	uint64_t released;	/* left io_quarantine: plausible now */
};
struct store *ingest_store_open(sqlite3 *db, char *err, size_t errlen);
/* Store one SRC_LOG source in one transaction. 0 done, 1 stopped (rolled
 * back), -1 fatal with err. Device ids touched go to ingest_store_devices(). */
int ingest_store_source(struct store *st, const struct src *s,
    struct store_stats *out, volatile sig_atomic_t *stop, char *err,
    size_t errlen);
/* Record archive damage (no source row). 0 or -1 with err. */
int ingest_store_damage(struct store *st, const struct src *s, char *err,
    size_t errlen);
/* Distinct hosts and devices stored through st so far. */
size_t ingest_store_hosts(const struct store *st);
size_t ingest_store_devices(const struct store *st);
void ingest_store_close(struct store *st);

#endif
