/*
 * iolog: the iostatmon log codec, writer and reader. The only code that
 * knows the bytes of docs/iolog-format.md.
 */
#ifndef IOCENSUS_IOLOG_H
#define IOCENSUS_IOLOG_H

#include <stddef.h>
#include <stdint.h>

#include "diskstats.h"
#include "fdpath.h"

/* The format version a writer writes. Readers read every version up to
 * it, each member by its own header's (docs/iolog-format.md). */
#define IOLOG_VERSION 2

enum iolog_flag {
	IOLOG_LATE = 1, IOLOG_GAP = 2, IOLOG_CLOCK_STEP = 4,
	IOLOG_SUSPEND = 8, IOLOG_NEW_BOOT = 16
};

enum iolog_state { IOLOG_OK = 0, IOLOG_ABSENT = 1, IOLOG_RESET = 2 };

/* The format's bounds (docs/iolog-format.md): a frame body is at most
 * IOLOG_FRAME_MAX bytes, and a device table, so a sample, at most
 * IOLOG_NDEV_MAX devices; a sample is never split over several frames. */
#define IOLOG_FRAME_MAX  (16u << 20)
#define IOLOG_NDEV_MAX   65536

struct iolog_header {
	char host[256];
	char release[128];	/* uname -r */
	char machine[64];	/* uname -m */
	int long_bits;		/* 32 or 64 */
	uint32_t interval_ms;
	char boot_id[64];
	uint64_t created_ns;	/* CLOCK_REALTIME */
	char writer[64];
	int version;		/* the reader sets it; writers write IOLOG_VERSION */
};

struct iolog_attr {
	char *key, *value;
};

struct iolog_dev {
	uint64_t id;		/* unique within a member; new id = new epoch */
	char name[DS_NAME_MAX];
	uint32_t major, minor;
	uint64_t diskseq;	/* 0: none */
	uint32_t fields;	/* mask of fields the kernel provides */
	size_t nattr;
	struct iolog_attr *attr;
};

struct iolog_clock {
	uint64_t seq;
	uint64_t realtime_ns, monotonic_ns, boottime_ns;
	uint64_t read_ns;
	uint32_t flags;
	uint64_t missed;
};

/* One device in a K or S frame. For IOLOG_OK in an S frame, v holds deltas
 * (and the in_flight value); for K frames and IOLOG_RESET, absolutes. The
 * writer ignores mask and stores exactly the non-zero values; the reader
 * sets mask to the fields stored and the others of v to 0. */
struct iolog_val {
	uint8_t state;
	uint32_t mask;		/* fields stored (non-zero) */
	uint64_t v[DS_FIELDS];
};

/* ---- writer ---- */

struct iolog_writer;

/* Open path for appending a new member: create it, or check the existing
 * file and, when its last member is torn (its writer was killed), cut it
 * in place after its last whole frame and seal that member (see the
 * format doc). repaired, if non-NULL, is set to 1 when a torn tail was
 * cut and sealed, 2 when it was found but writing the seal failed (err
 * then says why): the repair waits in the backlog, before every frame,
 * and is retried with it. Returns NULL with a message (file, reason,
 * errno text) in err when the file cannot be opened or read, or is not
 * an iolog file (then it is not touched). The file is opened (created
 * with mode 0644 less the umask) as lib/safefile opens it: no link is
 * followed, and a name that is not a regular file of one name is
 * refused (EPERM) before it is opened. */
struct iolog_writer *iolog_writer_open(const char *path, int *repaired,
    char *err, size_t errlen);

/* A new file at path, never an existing one (O_EXCL: nothing there is
 * used, a link no more than a file). NULL with errno (EEXIST: a file is
 * there; EPERM: a link, a FIFO or another thing that is not a regular
 * file is) and a message in err. */
struct iolog_writer *iolog_writer_create(const char *path, char *err,
    size_t errlen);
/* A writer with no file yet: frames wait in the backlog until
 * iolog_writer_attach() gives it one. NULL when out of memory. */
struct iolog_writer *iolog_writer_detached(void);

/* Continue in the file at path (iolog_writer_open's checks and repair),
 * after detaching from the current one. 0, or -1 with a message in err:
 * the writer stays detached (frames wait in the backlog; writes fail with
 * the errno of the failed open). */
int iolog_writer_attach(struct iolog_writer *w, const char *path,
    int *repaired, char *err, size_t errlen);
/* Leave the current file: a member none of whose bytes reached it is kept
 * in the backlog, to go to the next file whole; a member begun in it is
 * finished there, unless the file was deleted (link count 0). Writes then
 * fail with why until iolog_writer_attach(). Returns the bytes of backlog
 * that could not be written to the old file and were dropped. */
size_t iolog_writer_detach(struct iolog_writer *w, int why);
/* Is the writer's file still the one at path (fdpath.h)? A detached
 * writer's is FDPATH_DELETED. */
enum fdpath iolog_writer_at_path(const struct iolog_writer *w,
    const char *path);

/* Each call encodes one frame and writes it with one write(2). When a write
 * fails (ENOSPC, EIO) the frame's bytes are kept in a backlog, bounded by
 * backlog_max bytes, and written before the next frame; the call returns -1
 * with errno set, once per failure. If the backlog overflows, the member is
 * abandoned and the next frame starts a new member, whose header the caller
 * must write again: iolog_writer_needs_header() says so.
 * An H frame starts a new member (finishing the open one); any other frame
 * while no member is open, or input the format cannot hold (long_bits not
 * 32/64, a state above 2, a field mask past DS_FIELDS, more than 65536
 * devices or 256 attributes, a string filling its array without a NUL)
 * fails with EINVAL and writes nothing.
 * needs_header() is 1 on a new writer until its first header. */
int iolog_write_header(struct iolog_writer *w, const struct iolog_header *h);
int iolog_write_table(struct iolog_writer *w, const struct iolog_dev *d,
    size_t n);
int iolog_write_keyframe(struct iolog_writer *w, const struct iolog_clock *c,
    const struct iolog_val *v, size_t n);
int iolog_write_sample(struct iolog_writer *w, const struct iolog_clock *c,
    const struct iolog_val *v, size_t n);
int iolog_writer_needs_header(const struct iolog_writer *w);
size_t iolog_writer_backlog(const struct iolog_writer *w);
void iolog_writer_set_backlog_max(struct iolog_writer *w, size_t bytes);
/* Retry the backlog now, without a new frame: 0 when it is empty. */
int iolog_writer_flush(struct iolog_writer *w);
/* fdatasync the log (bounds what a power loss can take). 0 or -1. */
int iolog_writer_sync(struct iolog_writer *w);
/* Finish the member (Z_FINISH, trailer), fsync and close. 0 or -1. */
int iolog_writer_close(struct iolog_writer *w);

/* ---- reader ---- */

enum iolog_event_type {
	IOLOG_EV_HEADER, IOLOG_EV_TABLE, IOLOG_EV_KEYFRAME, IOLOG_EV_SAMPLE,
	IOLOG_EV_DAMAGE
};

struct iolog_event {
	enum iolog_event_type type;
	const struct iolog_header *header;	/* HEADER: the member's header */
	const struct iolog_dev *dev;		/* TABLE/KEYFRAME/SAMPLE: table */
	size_t ndev;
	const struct iolog_clock *clock;	/* KEYFRAME/SAMPLE */
	const struct iolog_val *val;		/* KEYFRAME/SAMPLE: ndev entries */
	uint64_t interval_ns;			/* SAMPLE: monotonic since previous */
	/* Compressed offset: where the frame's deflate block ends; DAMAGE:
	 * where the damaged region starts (docs/iolog-format.md, Reading). */
	uint64_t offset;
	const char *reason;			/* DAMAGE: why */
	/* DAMAGE: where reading resumed after it (the first frame read
	 * again, or the next member); 0 when nothing after it was read. */
	uint64_t resumed;
	/* DAMAGE: not damage but a note: the input ends inside a member
	 * right after a whole frame (a log still being written: no trailer
	 * yet), or inside the trailer. Nothing is lost. */
	int truncated;
	/* DAMAGE: the input ends inside a frame, and nothing else is wrong:
	 * a file cut short (or an archive member, where the archive breaks
	 * off). */
	int cut;
};

struct iolog_reader;

/* Read from a file, or from memory (for archive members and fuzzing; the
 * buffer must outlive the reader). name is used in messages. */
struct iolog_reader *iolog_reader_open(const char *path, char *err,
    size_t errlen);
/* The same from an open descriptor, read from its offset to its end. */
struct iolog_reader *iolog_reader_fd(int fd, const char *name, char *err,
    size_t errlen);
struct iolog_reader *iolog_reader_mem(const void *buf, size_t len,
    const char *name);

/* Next event: 1 with *ev filled (valid until the next call), 0 at the end.
 * Damage is an event, not an end: the reader reports each damaged region
 * once, with its offset, and reads on from the first frame after it that
 * can be used, in the same member or the next. */
int iolog_next(struct iolog_reader *r, struct iolog_event *ev);
/* The name given at open (the path for files), for messages. */
const char *iolog_reader_name(const struct iolog_reader *r);
void iolog_reader_close(struct iolog_reader *r);

/* ---- recognition ---- */

enum iolog_kind {
	IOLOG_NOT_GZIP,		/* does not start with the gzip magic */
	IOLOG_FOREIGN,		/* gzip whose data does not start like a log */
	IOLOG_LOG,		/* gzip whose data starts like a log */
	IOLOG_DAMAGED,		/* gzip whose header or data is bad before
				 * its data can tell */
	IOLOG_NEED_MORE		/* more of the file is needed to tell */
};

/* What the first len bytes of a file say it is; more: the file goes on
 * after them. A log whose first frame is damaged still starts like one as
 * long as its magic or the header frame's fixed start survived. */
enum iolog_kind iolog_sniff(const void *buf, size_t len, int more);

/* The lock iostatmon holds in its log directory while it runs,
 * PREFIX HOST SUFFIX: its one file there that is not a log, which a
 * reader of the directory passes over. */
#define IOLOG_LOCK_PREFIX ".iostatmon-"
#define IOLOG_LOCK_SUFFIX ".lock"
/* 1 when name, a directory entry, is such a lock's (a host between the
 * two, not empty), else 0. */
int iolog_lock_name(const char *name);

#endif
