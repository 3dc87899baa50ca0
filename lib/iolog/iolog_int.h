/*
 * iolog_int: frame bodies of docs/iolog-format.md to and from structs,
 * and the limits every reader enforces. Internal to lib/iolog/.
 */
#ifndef IOCENSUS_IOLOG_INT_H
#define IOCENSUS_IOLOG_INT_H

#include "iobuf.h"
#include "iolog.h"

#define IOLOG_NATTR_MAX  256		/* attributes per device */
#define IOLOG_STR_MAX    65535		/* attribute key or value */
#define IOLOG_MASK_ALL   ((UINT32_C(1) << DS_FIELDS) - 1)

enum { IOLOG_T_HEADER = 'H', IOLOG_T_TABLE = 'T', IOLOG_T_KEYFRAME = 'K',
    IOLOG_T_SAMPLE = 'S', IOLOG_T_PACKED = 'P' };

/* Encoders append a whole body (type byte first) to b. They return 0, or
 * -1 with errno EINVAL when the input cannot be represented (a string too
 * long, a state or mask out of range) and ENOMEM; b is then unspecified. */
int iolog_encode_header(struct iobuf *b, const struct iolog_header *h);
int iolog_encode_table(struct iobuf *b, const struct iolog_dev *d, size_t n);
int iolog_encode_values(struct iobuf *b, int type, const struct iolog_clock *c,
    const struct iolog_val *v, size_t n);
/* A sample as a P frame (version 2); scratch holds n entries. */
int iolog_packed_encode(struct iobuf *b, const struct iolog_clock *c,
    const struct iolog_val *v, size_t n, uint32_t *scratch);
/* The parts the S, K and P encoders share; finish turns invalid and
 * b->oom into the return value. */
void iolog_encode_clock(struct iobuf *b, const struct iolog_clock *c);
void iolog_encode_fields(struct iobuf *b, const uint64_t *v);
int iolog_encode_finish(struct iobuf *b, int invalid);

/* Decoders take the body after its type byte and return NULL, or the
 * reason it is invalid. iolog_decode_table allocates *dev (free with
 * iolog_decode_devs_free) and sets *ndev; iolog_decode_values fills ndev
 * entries. */
const char *iolog_decode_header(const uint8_t *p, size_t n,
    struct iolog_header *h);
const char *iolog_decode_table(const uint8_t *p, size_t n,
    struct iolog_dev **dev, size_t *ndev);
const char *iolog_decode_values(const uint8_t *p, size_t n, int type,
    struct iolog_clock *c, struct iolog_val *v, size_t ndev);
void iolog_decode_devs_free(struct iolog_dev *d, size_t n);
const char *iolog_packed_decode(const uint8_t *p, size_t n,
    struct iolog_clock *c, struct iolog_val *v, size_t ndev);
void iolog_decode_clock(struct cursor *c, struct iolog_clock *k);
void iolog_decode_fields(struct cursor *c, struct iolog_val *v);

/* The body of the frame the reader delivered last. */
void iolog_reader_frame(const struct iolog_reader *r, const uint8_t **body,
    size_t *len);
/* Encode one frame from its body and write it. */
int iolog_write_body(struct iolog_writer *w, const uint8_t *body, size_t len);
/* A writer appending to fd (-1: detached), whose file is file_len bytes
 * long. */
struct iolog_writer *iolog_writer_new(int fd, uint64_t file_len);
/* Attach the detached w to fd, len bytes long; when tail is not its end
 * (or is inside a member), the file is cut there and sealed before
 * anything else is written (iolog_open.c). */
struct inf_tail;
void iolog_writer_set_file(struct iolog_writer *w, int fd, uint64_t len,
    const struct inf_tail *tail);
/* A whole file into memory from an open descriptor's current offset, or
 * NULL with errno. */
uint8_t *iolog_read_slurp_fd(int fd, size_t *len);

#endif
