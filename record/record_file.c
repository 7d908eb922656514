// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The trace.dat file of a recording.  The sections known before tracing starts are written
 * first and room for the rest is reserved, so that a full disk during the recording still
 * leaves space for the tail (cmdlines, options, CPU table) and the file stays readable.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "latscope/base.h"
#include "record_priv.h"

#define TAIL_RESERVE (128 * 1024)
#define COPY_CHUNK (64 * 1024)

int rec_slurp(const char *path, char **buf, size_t *len)
{
	size_t cap = 8192, n = 0;
	char *b = NULL, *nb;
	int fd, ret = 0;

	*buf = NULL;
	*len = 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	b = malloc(cap + 1);
	if (!b) {
		ret = -ENOMEM;
		goto out;
	}
	for (;;) {
		ssize_t r;

		if (n == cap) {
			cap *= 2;
			nb = realloc(b, cap + 1);
			if (!nb) {
				ret = -ENOMEM;
				goto out;
			}
			b = nb;
		}
		r = read(fd, b + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			ret = -errno;
			goto out;
		}
		if (!r)
			break;
		n += (size_t)r;
	}
	b[n] = 0;
	*buf = b;
	*len = n;
	b = NULL;
out:
	free(b);
	close(fd);
	return ret;
}

/* The format files of every event of one system, in directory order. */
struct fmt_set {
	struct tdw_blob *f;
	char **bufs;
	uint32_t n;
};

static void fmt_set_free(struct fmt_set *s)
{
	for (uint32_t i = 0; i < s->n; i++)
		free(s->bufs[i]);
	free(s->bufs);
	free(s->f);
	memset(s, 0, sizeof(*s));
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int fmt_set_load(struct fmt_set *s, const char *events_dir, const char *system)
{
	char path[4096];
	char **names = NULL;
	size_t nn = 0, cap = 0;
	struct dirent *de;
	DIR *d;
	int ret = 0;

	memset(s, 0, sizeof(*s));
	snprintf(path, sizeof(path), "%s/%s", events_dir, system);
	d = opendir(path);
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		struct stat st;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s/%s/format", events_dir, system, de->d_name);
		if (stat(path, &st))
			continue;	/* "enable", "filter": not events */
		if (lat_grow(&names, &cap, nn + 1, sizeof(*names)) ||
		    !(names[nn] = strdup(de->d_name))) {
			ret = -ENOMEM;
			goto out;
		}
		nn++;
	}
	lat_sort(names, nn, sizeof(*names), cmp_str);
	s->f = calloc(nn ? nn : 1, sizeof(*s->f));
	s->bufs = calloc(nn ? nn : 1, sizeof(*s->bufs));
	if (!s->f || !s->bufs) {
		ret = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < nn; i++) {
		size_t len;

		snprintf(path, sizeof(path), "%s/%s/%s/format", events_dir, system, names[i]);
		if (rec_slurp(path, &s->bufs[s->n], &len))
			continue;	/* unreadable: trace-cmd shows its events as unknown */
		s->f[s->n].data = s->bufs[s->n];
		s->f[s->n].len = len;
		s->n++;
	}
out:
	for (size_t i = 0; i < nn; i++)
		free(names[i]);
	free(names);
	closedir(d);
	return ret;
}

static int write_prefix(struct rec_file *f, const char *tdir, const char *const *systems,
			size_t nsys, bool kallsyms)
{
	char path[4096];
	char *hp = NULL, *he = NULL, *pk = NULL;
	size_t hpl = 0, hel = 0, pkl = 0;
	struct fmt_set ftrace = { 0 }, *sets = NULL;
	struct tdw_system *sys = NULL;
	struct tdw_blob bhp, bhe, bpk, none = { "", 0 };
	int ks_fd = -1, ret;

	snprintf(path, sizeof(path), "%s/events/header_page", tdir);
	ret = rec_slurp(path, &hp, &hpl);
	if (ret)
		goto out;
	snprintf(path, sizeof(path), "%s/events/header_event", tdir);
	ret = rec_slurp(path, &he, &hel);
	if (ret)
		goto out;
	snprintf(path, sizeof(path), "%s/events", tdir);
	ret = fmt_set_load(&ftrace, path, "ftrace");
	if (ret)
		goto out;
	sets = calloc(nsys ? nsys : 1, sizeof(*sets));
	sys = calloc(nsys ? nsys : 1, sizeof(*sys));
	if (!sets || !sys) {
		ret = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < nsys; i++) {
		ret = fmt_set_load(&sets[i], path, systems[i]);
		if (ret)
			goto out;
		sys[i].name = systems[i];
		sys[i].formats = sets[i].f;
		sys[i].nformats = sets[i].n;
	}
	/*
	 * kallsyms only names kernel addresses; a recording never fails for it.  It is streamed
	 * into the file: slurping 5 MB first cost as much again as generating it.
	 */
	if (kallsyms)
		ks_fd = open("/proc/kallsyms", O_RDONLY | O_CLOEXEC);
	snprintf(path, sizeof(path), "%s/printk_formats", tdir);
	if (rec_slurp(path, &pk, &pkl))
		pkl = 0;
	bhp = (struct tdw_blob){ hp, hpl };
	bhe = (struct tdw_blob){ he, hel };
	bpk = (struct tdw_blob){ pk, pkl };
	tdw_write_initial(&f->w, (uint32_t)sysconf(_SC_PAGESIZE));
	tdw_write_headers(&f->w, &bhp, &bhe);
	tdw_write_ftrace(&f->w, ftrace.f, ftrace.n);
	tdw_write_systems(&f->w, sys, (uint32_t)nsys);
	if (ks_fd >= 0)
		tdw_write_kallsyms_fd(&f->w, ks_fd);
	else
		tdw_write_kallsyms(&f->w, &none);
	ret = tdw_write_printk(&f->w, &bpk);
	if (!ret && !kallsyms)
		f->kallsyms_left_out = true;
out:
	fmt_set_free(&ftrace);
	for (size_t i = 0; sets && i < nsys; i++)
		fmt_set_free(&sets[i]);
	free(sets);
	free(sys);
	free(hp);
	free(he);
	if (ks_fd >= 0)
		close(ks_fd);
	free(pk);
	return ret;
}

int rec_file_begin(struct rec_file *f, const char *path, const char *tracing_dir,
		       const char *const *systems, size_t nsystems, bool kallsyms, FILE *msg)
{
	int ret;

	memset(f, 0, sizeof(*f));
	f->fd = -1;
	f->path = strdup(path);
	if (!f->path)
		return -ENOMEM;
	f->fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (f->fd < 0) {
		ret = -errno;
		free(f->path);
		f->path = NULL;
		return ret;
	}
	tdw_init(&f->w, f->fd, NULL);
	ret = write_prefix(f, tracing_dir, systems, nsystems, kallsyms);
	if (kallsyms && (ret == -ENOSPC || ret == -EDQUOT || ret == -EFBIG)) {
		/* kallsyms is most of the header; without it stacks show addresses only. */
		if (ftruncate(f->fd, 0) == 0 && lseek(f->fd, 0, SEEK_SET) == 0) {
			tdw_init(&f->w, f->fd, NULL);
			ret = write_prefix(f, tracing_dir, systems, nsystems, false);
			if (!ret)
				fprintf(msg, "latscope: %s: no room for kallsyms, stored without it\n",
					path);
		}
	}
	if (!ret) {
		f->prefix_end = f->w.pos;
		ret = posix_fallocate(f->fd, (off_t)f->prefix_end, TAIL_RESERVE);
		if (ret == EOPNOTSUPP || ret == EINVAL)
			ret = 0;	/* this file system cannot reserve: go without */
		ret = -ret;
	}
	if (ret)
		rec_file_close(f, true);
	return ret;
}

static int file_size(const char *path, uint64_t *size)
{
	struct stat st;

	*size = 0;
	if (!path)
		return 0;
	if (stat(path, &st))
		return errno == ENOENT ? 0 : -errno;
	*size = (uint64_t)st.st_size;
	return 0;
}

/* Copies one CPU's pages; returns 0 or -errno with *@copied the bytes that made it. */
static int copy_cpu(struct rec_file *f, const char *path, uint64_t size, uint64_t *copied)
{
	char *buf = NULL;
	uint64_t off = 0;
	int fd = -1, ret = 0;

	*copied = 0;
	if (!size)
		return 0;
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	buf = malloc(COPY_CHUNK);
	if (!buf) {
		ret = -ENOMEM;
		goto out;
	}
	while (off < size) {
		size_t want = size - off < COPY_CHUNK ? (size_t)(size - off) : COPY_CHUNK;
		uint64_t before = f->w.pos;
		ssize_t r = pread(fd, buf, want, (off_t)off);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			ret = r < 0 ? -errno : -EIO;
			break;
		}
		ret = tdw_write_data(&f->w, buf, (size_t)r);
		*copied += f->w.pos - before;
		if (ret)
			break;
		/* Give the copied range back at once: on a full disk the copy needs no extra room. */
		fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)off, r);
		off += (uint64_t)r;
	}
out:
	free(buf);
	close(fd);
	return ret;
}

int rec_file_finish(struct rec_file *f, const struct rec_tail *t, bool *readable)
{
	struct tdw_blob cl = { t->cmdlines, t->cmdlines_len };
	uint64_t *sizes;
	int ret = 0;

	*readable = false;
	sizes = calloc(t->ncpus ? t->ncpus : 1, sizeof(*sizes));
	if (!sizes)
		return -ENOMEM;
	for (uint32_t i = 0; i < t->ncpus; i++) {
		ret = file_size(t->cpu_paths[i], &sizes[i]);
		if (ret)
			goto out;
	}
	/* Drop the reservation, then write the tail into the room it kept. */
	if (ftruncate(f->fd, (off_t)f->prefix_end) < 0 ||
	    lseek(f->fd, (off_t)f->prefix_end, SEEK_SET) < 0) {
		ret = -errno;
		goto out;
	}
	f->w.pos = f->prefix_end;
	tdw_write_cmdlines(&f->w, &cl);
	tdw_write_options(&f->w, t->ncpus, t->opts, t->nopts);
	ret = tdw_write_flyrecord(&f->w, sizes);
	if (ret) {
		if (f->w.table_pos && tdw_cut(&f->w, 0, 0) == 0)
			*readable = true;
		goto out;
	}
	*readable = true;
	for (uint32_t i = 0; i < t->ncpus; i++) {
		uint64_t copied;

		ret = copy_cpu(f, t->cpu_paths[i], f->w.cpu_size[i], &copied);
		if (ret) {
			if (tdw_cut(&f->w, i, copied))
				*readable = false;
			break;
		}
	}
out:
	free(sizes);
	return ret;
}

void rec_file_close(struct rec_file *f, bool remove)
{
	if (f->fd >= 0)
		close(f->fd);
	f->fd = -1;
	if (remove && f->path)
		unlink(f->path);
	tdw_release(&f->w);
	free(f->path);
	f->path = NULL;
}
