// SPDX-License-Identifier: GPL-2.0-or-later
/* Starting the readers' worker threads (par_threads.h). */
#include "par_threads.h"

int par_spawn(pthread_t *th, int n, void *(*fn)(void *), char *arg, size_t stride)
{
	pthread_attr_t at;
	int ok = pthread_attr_init(&at) == 0, started = 0;

	if (ok)
		pthread_attr_setstacksize(&at, PAR_STACK);
	while (started < n && !pthread_create(&th[started], ok ? &at : NULL, fn,
					      arg + (size_t)started * stride))
		started++;
	if (ok)
		pthread_attr_destroy(&at);
	return started;
}

void par_stop(pthread_mutex_t *mu, pthread_cond_t *work, int *stop, pthread_t *th, int n)
{
	pthread_mutex_lock(mu);
	*stop = 1;
	pthread_cond_broadcast(work);
	pthread_mutex_unlock(mu);
	for (int i = 0; i < n; i++)
		pthread_join(th[i], NULL);
}
