/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The readers' worker threads (tracedat_par.c, ftrace_text_par.c): starting them. */
#ifndef LATSCOPE_FORMATS_PAR_THREADS_H
#define LATSCOPE_FORMATS_PAR_THREADS_H

#include <pthread.h>
#include <stddef.h>

/* A worker's stack: the readers' workers keep no large arrays on it. */
#define PAR_STACK (256u << 10)

/*
 * Starts up to @n threads into @th, thread i running @fn(@arg + i * @stride)
 * (@stride 0: all the same @arg); how many started (the first failure stops).
 */
int par_spawn(pthread_t *th, int n, void *(*fn)(void *), char *arg, size_t stride);

/*
 * Sets *@stop under @mu, wakes the workers waiting on @work and joins the @n
 * threads of @th: each sees *@stop when it next takes the lock.
 */
void par_stop(pthread_mutex_t *mu, pthread_cond_t *work, int *stop, pthread_t *th, int n);

#endif
