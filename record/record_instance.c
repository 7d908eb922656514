// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The recorder's tracefs instance: mounting tracefs if needed, creating latscope-PID, enabling
 * the events and triggers in it, and undoing all of that.  Nothing outside the instance is
 * written.
 */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

#include <tracefs.h>

#include "latscope/base.h"
#include "latscope/record.h"
#include "record_priv.h"
#include "record_session.h"

static const char *const default_events[] = {
	"sched:sched_switch", "sched:sched_waking", "sched:sched_wakeup",
	"sched:sched_wakeup_new", "sched:sched_migrate_task", "sched:sched_process_fork",
	"sched:sched_process_exec", "sched:sched_process_exit",
};

static const char *const irq_events[] = {
	"irq:irq_handler_entry", "irq:irq_handler_exit", "irq:softirq_entry", "irq:softirq_exit",
};

/*
 * --timer-detail: what splits a probe sample into irq, handler and wakeup (docs/probe.md),
 * and each hrtimer's expiry armed and canceled: kernel-side timer latency (docs/timers.md)
 */
static const char *const timer_events[] = {
	"timer:hrtimer_expire_entry", "timer:hrtimer_expire_exit",
	"timer:hrtimer_start", "timer:hrtimer_cancel",
	"irq_vectors:local_timer_entry", "irq_vectors:local_timer_exit",
};

static int add_unique(char ***arr, size_t *n, const char *s, size_t len)
{
	size_t cap = *n;

	for (size_t i = 0; i < *n; i++)
		if (strlen((*arr)[i]) == len && !strncmp((*arr)[i], s, len))
			return 0;
	if (lat_grow(arr, &cap, *n + 1, sizeof(**arr)))
		return -LAT_ENOMEM;
	(*arr)[*n] = strndup(s, len);
	if (!(*arr)[*n])
		return -LAT_ENOMEM;
	(*n)++;
	return 0;
}

/* Enables SYSTEM:EVENT (EVENT "*" = the whole system) in our instance only. */
static int enable_event(struct rec *r, const char *spec)
{
	const char *colon = strchr(spec, ':');
	char file[512];
	int ret;

	if (!colon || colon == spec || !colon[1] || strchr(colon + 1, '/') || strchr(spec, '/')) {
		fprintf(r->msg, "latscope: -e %s: expected SYSTEM:EVENT\n", spec);
		return -LAT_EUSAGE;
	}
	if (!strcmp(colon + 1, "*"))
		snprintf(file, sizeof(file), "events/%.*s/enable", (int)(colon - spec), spec);
	else
		snprintf(file, sizeof(file), "events/%.*s/%s/enable", (int)(colon - spec), spec,
			 colon + 1);
	if (!tracefs_file_exists(r->inst, file)) {
		fprintf(r->msg, "latscope: event %s does not exist on this kernel\n", spec);
		return -LAT_EUSAGE;
	}
	if (tracefs_instance_file_write(r->inst, file, "1") < 0) {
		fprintf(r->msg, "latscope: enabling %s refused: %s\n", spec, strerror(errno));
		return errno == EACCES || errno == EPERM ? -LAT_EPERM : -LAT_EIO;
	}
	ret = add_unique(&r->systems, &r->nsystems, spec, (size_t)(colon - spec));
	if (!ret)
		ret = add_unique(&r->enabled, &r->nenabled, file, strlen(file));
	return ret;
}

/* An event of --timer-detail: enabled when this kernel (architecture) has it, else said so. */
static int enable_if_there(struct rec *r, const char *spec)
{
	const char *colon = strchr(spec, ':');
	char file[256];

	snprintf(file, sizeof(file), "events/%.*s/%s/enable", (int)(colon - spec), spec,
		 colon + 1);
	if (!tracefs_file_exists(r->inst, file)) {
		fprintf(r->msg, "latscope: --timer-detail: %s is not on this kernel, left out\n",
			spec);
		return 0;
	}
	return enable_event(r, spec);
}

static bool tracefs_mounted(void)
{
	char *buf;
	size_t len;
	bool yes;

	if (rec_slurp("/proc/mounts", &buf, &len))
		return false;
	yes = strstr(buf, " tracefs ") != NULL;
	free(buf);
	return yes;
}

/*
 * Removes the instances of earlier latscope runs that died without cleaning up, saying which.
 * Only an instance whose pid no longer exists is touched: other recordings run at the same
 * time (kill() says EPERM for a live process of another user: left alone as well).
 */
static void remove_stale_instances(struct rec *r)
{
	char path[4096];
	struct dirent *de;
	DIR *d;

	snprintf(path, sizeof(path), "%s/instances", r->tdir);
	d = opendir(path);
	if (!d)
		return;
	while ((de = readdir(d))) {
		char *end;
		long pid;

		if (strncmp(de->d_name, "latscope-", 9))
			continue;
		pid = strtol(de->d_name + 9, &end, 10);
		if (*end || pid <= 0 || kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue;
		snprintf(path, sizeof(path), "%s/instances/%s", r->tdir, de->d_name);
		if (!rmdir(path))
			fprintf(r->msg, "latscope: removed instance %s left by a killed run "
				"(pid %ld no longer exists)\n", path, pid);
		else if (errno != ENOENT)	/* ENOENT: another run removed it first */
			fprintf(r->msg, "latscope: could not remove instance %s left by a killed "
				"run (pid %ld no longer exists): %s\n", path, pid,
				strerror(errno));
	}
	closedir(d);
}

/*
 * --top-markers: what programs write to the top-level trace_marker (cyclictest
 * --tracemark) is copied into this instance too (options/copy_trace_marker of newer
 * kernels, 6.18 here); the top level keeps its own copy.
 */
static int copy_top_markers(struct rec *r, const char *inst_path)
{
	if (!tracefs_file_exists(r->inst, "options/copy_trace_marker")) {
		fprintf(r->msg, "latscope: --top-markers: this kernel has no %s/options/"
			"copy_trace_marker (newer kernels; 6.18 has it): the top-level "
			"trace_marker cannot reach an instance\n", inst_path);
		return -LAT_EUSAGE;
	}
	if (tracefs_instance_file_write(r->inst, "options/copy_trace_marker", "1") < 0) {
		fprintf(r->msg, "latscope: %s/options/copy_trace_marker refused: %s\n", inst_path,
			strerror(errno));
		return -LAT_EPERM;
	}
	r->copy_markers = true;
	return 0;
}

/* The events recorded, and with --stacks the stacktrace triggers. */
static int enable_events(struct rec *r)
{
	const struct lat_record_opts *o = r->o;
	int ret = 0;

	for (size_t i = 0; !ret && i < LAT_ARRAY_SIZE(default_events); i++)
		ret = enable_event(r, default_events[i]);
	for (size_t i = 0; !ret && o->irq && i < LAT_ARRAY_SIZE(irq_events); i++)
		ret = enable_event(r, irq_events[i]);
	for (size_t i = 0; !ret && o->timer_detail && i < LAT_ARRAY_SIZE(timer_events); i++)
		ret = enable_if_there(r, timer_events[i]);
	for (size_t i = 0; !ret && i < o->nevents; i++)
		ret = enable_event(r, o->events[i]);
	if (ret)
		return ret;
	if (o->stacks) {
		r->triggers_set = true;
		for (size_t i = 0; i < REC_NSTACK_EVENTS; i++) {
			char file[128];

			snprintf(file, sizeof(file), "events/%s/trigger", rec_stack_events[i]);
			if (tracefs_instance_file_append(r->inst, file, "stacktrace") < 0) {
				fprintf(r->msg, "latscope: stacktrace trigger on %s refused: %s\n",
					rec_stack_events[i], strerror(errno));
				return -LAT_EPERM;
			}
		}
	}
	return 0;
}

/* tracefs mounted (by us if need be), found, and its instances directory writable. */
static int open_tracefs(struct rec *r)
{
	char inst_dir[4096];

	if (!tracefs_mounted()) {
		if (mount("nodev", "/sys/kernel/tracing", "tracefs", 0, NULL)) {
			fprintf(r->msg, "latscope: tracefs is not mounted and mounting it on "
				"/sys/kernel/tracing was refused (%s): recording needs root "
				"(CAP_SYS_ADMIN)\n", strerror(errno));
			return -LAT_EPERM;
		}
		r->mounted_here = true;
	}
	r->tdir = tracefs_tracing_dir();
	if (!r->tdir) {
		fprintf(r->msg, "latscope: tracefs not found: recording needs tracefs "
			"(/sys/kernel/tracing) and root\n");
		return -LAT_EPERM;
	}
	/* Ask first: a refused tracefs_instance_create() leaks inside libtracefs. */
	snprintf(inst_dir, sizeof(inst_dir), "%s/instances", r->tdir);
	if (access(inst_dir, W_OK)) {
		fprintf(r->msg, "latscope: creating a tracefs instance in %s refused (%s): "
			"recording needs root (CAP_SYS_ADMIN) and a writable tracefs\n",
			inst_dir, strerror(errno));
		return -LAT_EPERM;
	}
	return 0;
}

int rec_setup_instance(struct rec *r)
{
	const struct lat_record_opts *o = r->o;
	char inst_path[4096];
	int ret = open_tracefs(r);

	if (ret)
		return ret;
	remove_stale_instances(r);
	snprintf(r->inst_name, sizeof(r->inst_name), "latscope-%d", (int)getpid());
	if (tracefs_instance_exists(r->inst_name)) {
		fprintf(r->msg, "latscope: instance %s already exists\n", r->inst_name);
		return -LAT_EIO;
	}
	snprintf(inst_path, sizeof(inst_path), "%s/instances/%s", r->tdir, r->inst_name);
	rec_em_instance(inst_path, r->mounted_here);
	r->inst = tracefs_instance_create(r->inst_name);
	if (!r->inst) {
		rec_em_instance(NULL, false);
		fprintf(r->msg, "latscope: creating tracefs instance %s/instances/%s refused (%s): "
			"recording needs root (CAP_SYS_ADMIN) and a writable tracefs\n",
			r->tdir, r->inst_name, strerror(errno));
		return errno == ENOMEM ? -LAT_ENOMEM : -LAT_EPERM;
	}
	/* A new instance traces at once: keep it off until the readers are in place. */
	if (tracefs_trace_off(r->inst) < 0) {
		fprintf(r->msg, "latscope: %s/tracing_on refused: %s\n", inst_path,
			strerror(errno));
		return -LAT_EPERM;
	}
	if (o->buffer_kb && tracefs_instance_set_buffer_size(r->inst, o->buffer_kb, -1) < 0) {
		fprintf(r->msg, "latscope: setting the buffer to %u KB refused: %s\n",
			o->buffer_kb, strerror(errno));
		return -LAT_EUSAGE;
	}
	/*
	 * Wake the readers when a fifth of the buffer is full, not half (the default): under a
	 * load that starves them of CPU the rest of the buffer is what absorbs their wake-up
	 * latency.  Kernels without the file just keep their default.
	 */
	if (o->stop_above_ns <= 0 &&
	    tracefs_file_exists(r->inst, "buffer_percent"))
		tracefs_instance_file_write(r->inst, "buffer_percent", "20");
	/* Streaming readers keep up; the flight recorder must keep the newest events. */
	if (o->stop_above_ns > 0 &&
	    tracefs_instance_file_write(r->inst, "options/overwrite", "1") < 0) {
		fprintf(r->msg, "latscope: overwrite mode refused: %s\n", strerror(errno));
		return -LAT_EPERM;
	}
	if (o->top_markers && (ret = copy_top_markers(r, inst_path)))
		return ret;
	return enable_events(r);
}

/* Undoes everything in the instance, then removes it; safe on a half-built setup. */
void rec_teardown_instance(struct rec *r)
{
	if (!r->inst)
		return;
	tracefs_trace_off(r->inst);
	if (r->triggers_set) {
		for (size_t i = 0; i < REC_NSTACK_EVENTS; i++) {
			char file[128];

			snprintf(file, sizeof(file), "events/%s/trigger", rec_stack_events[i]);
			tracefs_instance_file_append(r->inst, file, "!stacktrace");
		}
	}
	for (size_t i = 0; i < r->nenabled; i++)
		tracefs_instance_file_write(r->inst, r->enabled[i], "0");
	if (r->copy_markers)
		tracefs_instance_file_write(r->inst, "options/copy_trace_marker", "0");
	if (tracefs_instance_destroy(r->inst) < 0) {
		char *dir = tracefs_instance_get_dir(r->inst);

		/* another process holds one of its files (EBUSY): say how to remove it later */
		fprintf(r->msg, "latscope: could not remove instance %s (%s); its tracing is off; "
			"remove it with: rmdir %s (the next latscope record also removes it)\n",
			dir ? dir : r->inst_name, strerror(errno), dir ? dir : r->inst_name);
		free(dir);
	} else {
		rec_em_instance(NULL, false);
	}
	tracefs_instance_free(r->inst);
	r->inst = NULL;
	if (r->mounted_here)
		umount2("/sys/kernel/tracing", MNT_DETACH);
	r->mounted_here = false;
}
