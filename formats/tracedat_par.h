/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The trace.dat source with its CPUs decoded by worker threads
 * (tracedat_par.c): each group of CPUs' pages are walked, decompressed,
 * merged and decoded by one worker at a time into batches of events, a few
 * batches in flight per group; the thread that pulls events merges the
 * groups' batches by (timestamp, cpu) and finishes each event
 * (tracedat_src.h).  Events, their order, the stop
 * and skip reasons and where they appear are those of the one-thread walk.
 */
#ifndef LATSCOPE_FORMATS_TRACEDAT_PAR_H
#define LATSCOPE_FORMATS_TRACEDAT_PAR_H

#include "tracedat_src.h"

/*
 * Compressed page data (or uncompressed data of 8 CPUs and more, whose
 * workers merge groups of CPUs) below which the default reads with one
 * thread: making the threads and handing batches over costs more than they
 * save; uncompressed data of fewer CPUs is always read with one thread by
 * default (bench/README-tracedat.md, "Threads").
 */
#define TD_PAR_MIN_BYTES (512u << 10)

/*
 * Worker threads for reading @s's buffer with @jobs threads in all (the
 * option -j: 0 the default, 1 one thread): 0 when one thread reads it.  The
 * default is the online CPUs (at most LAT_JOBS_MAX, the puller
 * counted) for compressed data, or data of 8 CPUs and more, from
 * TD_PAR_MIN_BYTES on, else one thread; there are
 * never more workers than CPUs with data.
 */
int td_par_workers(const struct td_src *s, int jobs);

/*
 * Starts @nworkers workers over s->walk (opened per CPU) and waits for every
 * group's first batch, replaying the notes of the walk's start in CPU order.
 * 0 started; 1 no thread could be made (nothing changed: read with one
 * thread); or a negative lat_err (the walk's start failed).  s->par is set
 * from the start: td_par_free() it in every case.
 */
int td_par_start(struct td_src *s, int nworkers);

/* The source's next / next_batch when s->par is set (struct lat_event_source_ops). */
int td_par_next(struct lat_event_source *base, struct lat_event *ev);
int td_par_next_batch(struct lat_event_source *base, struct lat_event *evs, int n);

/* Whether any CPU has an event left (after td_par_start()). */
int td_par_live(const struct td_src *s);

/* Stops the workers (they end within a batch), joins them and frees s->par. */
void td_par_free(struct td_src *s);

#endif
