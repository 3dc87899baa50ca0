/*
 * suggest: "did you mean ...?" for a mistyped command or option, and
 * getopt_long's refusals said in words, alike in every program (fsscan,
 * fsscan-mpi, iostatmon and its subcommands, iocensus).
 */
#ifndef IOCENSUS_SUGGEST_H
#define IOCENSUS_SUGGEST_H

#include <getopt.h>
#include <stddef.h>

/* The candidate word most likely meant: the only one it starts (at least
 * 2 letters typed), else the only one within one edit (two for words of
 * 5 letters or more: an insertion, a deletion, a substitution or two
 * neighbours swapped); NULL when none or several. */
const char *suggest_word(const char *word, const char *const *cand,
    size_t n);

/* An unknown or ambiguous long option in words, into buf: arg is the word
 * of argv ("--projekt", "--pro=x"); all is the getopt_long table it was
 * read against (a zero entry ends it), cand the options this command
 * takes, to suggest from (NULL: all). "unknown option '--projekt'; did
 * you mean '--project'?", "ambiguous option '--pro' (--progress,
 * --project)" or "unknown option '--x'". */
void suggest_option(char *buf, size_t len, const char *arg,
    const struct option *all, const struct option *cand);

/* What getopt_long refused, on stderr as "PROG: ...", then the line
 * "PROG: `PROG --help` lists the options". For a parser that set opterr
 * to 0 and began its optstring with ':': c is what getopt_long returned
 * ('?' or ':'), arg the word of argv it read (argv[optind - 1]), opt its
 * optopt, opts the table. */
void suggest_getopt(const char *prog, int c, const char *arg, int opt,
    const struct option *opts);

#endif
