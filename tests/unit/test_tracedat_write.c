// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The trace.dat v6 writer against hand-built input: byte layout checked field by field against
 * man 5 trace-cmd.dat.v6, and the whole file read back by the real trace-cmd when installed.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "tracedat_write.h"

#define PAGE 4096

/* The kernel's own texts (6.18, x86_64), copied from /sys/kernel/tracing/events. */
static const char header_page[] =
	"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
	"\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
	"\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
	"\tfield: char data;\toffset:16;\tsize:4080;\tsigned:0;\n";
static const char header_event[] =
	"# compressed entry header\n"
	"\ttype_len    :    5 bits\n"
	"\ttime_delta  :   27 bits\n"
	"\tarray       :   32 bits\n"
	"\n"
	"\tpadding     : type == 29\n"
	"\ttime_extend : type == 30\n"
	"\ttime_stamp : type == 31\n"
	"\tdata max type_len  == 28\n";
static const char print_format[] =
	"name: print\n"
	"ID: 5\n"
	"format:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
	"\n"
	"\tfield:unsigned long ip;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:char buf[];\toffset:16;\tsize:0;\tsigned:0;\n"
	"\n"
	"print fmt: \"%ps: %s\", (void *)REC->ip, REC->buf\n";
/* A made-up system, so the systems section has a name and an event of its own. */
static const char demo_format[] =
	"name: demo_event\n"
	"ID: 1999\n"
	"format:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
	"\n"
	"\tfield:int value;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\n"
	"print fmt: \"value=%d\", REC->value\n";
static const char cmdlines[] = "4242 demo-task\n";

/*
 * One ring-buffer page holding one print event: page header (timestamp, commit), then the
 * event header (type_len = payload words, time_delta 0) and the payload (common fields, ip,
 * the string).  Layout per header_page / header_event above.
 */
static void build_page(unsigned char *page, uint64_t ts, int pid, const char *msg)
{
	size_t slen = strlen(msg) + 1, payload = 16 + slen;
	uint32_t words = (uint32_t)((payload + 3) / 4);
	unsigned char *ev = page + 16;

	memset(page, 0, PAGE);
	tdw_put64(page, ts);
	tdw_put64(page + 8, 4 + words * 4);	/* commit: bytes of event data */
	tdw_put32(ev, words);			/* type_len = words, time_delta = 0 */
	tdw_put16(ev + 4, 5);			/* common_type: print's ID */
	ev[6] = 0;
	ev[7] = 0;
	tdw_put32(ev + 8, (uint32_t)pid);
	tdw_put64(ev + 12, 0);			/* ip */
	memcpy(ev + 20, msg, slen);
}

struct built {
	char path[64];
	uint64_t page_off[2];
};

static ssize_t fail_after_budget(int fd, const void *buf, size_t len);

static int write_file(struct built *b, tdw_write_fn fn, int *err_out)
{
	static const char stat_text[] = "CPU: 0\nentries: 0\noverrun: 7\n";
	static const char clock[] = "[local] global\n";
	struct tdw_blob hp = { header_page, sizeof(header_page) - 1 };
	struct tdw_blob he = { header_event, sizeof(header_event) - 1 };
	struct tdw_blob ftrace = { print_format, sizeof(print_format) - 1 };
	struct tdw_blob demo = { demo_format, sizeof(demo_format) - 1 };
	struct tdw_system sys = { "demo", &demo, 1 };
	struct tdw_blob ks = { "ffffffff81000000 T _stext\n", 26 };
	struct tdw_blob pk = { "", 0 };
	struct tdw_blob cl = { cmdlines, sizeof(cmdlines) - 1 };
	struct tdw_option opts[] = {
		{ TDW_OPT_CPUSTAT, stat_text, sizeof(stat_text) },
		{ TDW_OPT_TRACECLOCK, clock, sizeof(clock) },
	};
	uint64_t sizes[2] = { PAGE, PAGE + 100 };	/* the odd 100 bytes must be dropped */
	unsigned char page[PAGE];
	struct tdw w;
	int fd, ret;

	strcpy(b->path, "/tmp/test_tdw_XXXXXX");
	fd = mkstemp(b->path);
	assert_true(fd >= 0);
	tdw_init(&w, fd, fn);
	tdw_write_initial(&w, PAGE);
	tdw_write_headers(&w, &hp, &he);
	tdw_write_ftrace(&w, &ftrace, 1);
	tdw_write_systems(&w, &sys, 1);
	tdw_write_kallsyms(&w, &ks);
	tdw_write_printk(&w, &pk);
	tdw_write_cmdlines(&w, &cl);
	tdw_write_options(&w, 2, opts, 2);
	tdw_write_flyrecord(&w, sizes);
	build_page(page, 1000000000ULL, 4242, "hello from cpu0");
	tdw_write_data(&w, page, PAGE);
	build_page(page, 1500000000ULL, 4242, "hello from cpu1");
	ret = tdw_write_data(&w, page, PAGE);
	if (w.cpu_off) {
		b->page_off[0] = w.cpu_off[0];
		b->page_off[1] = w.cpu_off[1];
	}
	*err_out = ret;
	if (ret && w.cpu_off)
		tdw_cut(&w, 1, 0);
	tdw_release(&w);
	close(fd);
	return ret;
}

static unsigned char *slurp(const char *path, size_t *len)
{
	struct stat st;
	unsigned char *buf;
	int fd = open(path, O_RDONLY);

	assert_true(fd >= 0);
	assert_int_equal(fstat(fd, &st), 0);
	buf = malloc((size_t)st.st_size + 1);
	assert_non_null(buf);
	assert_int_equal(read(fd, buf, (size_t)st.st_size), st.st_size);
	close(fd);
	*len = (size_t)st.st_size;
	return buf;
}

static uint64_t get(const unsigned char *p, int n)
{
	uint64_t v = 0;

	memcpy(&v, p, (size_t)n);	/* little-endian host: the file is in host order */
	return v;
}

/* Walks the file the way man 5 trace-cmd.dat.v6 describes it. */
static void test_layout(void **state)
{
	static const unsigned char magic[] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };
	struct built b;
	size_t len, p = 0;
	unsigned char *f;
	int err;

	(void)state;
	assert_int_equal(write_file(&b, NULL, &err), 0);
	f = slurp(b.path, &len);
	assert_memory_equal(f, magic, 10);
	p = 10;
	assert_memory_equal(f + p, "6", 2);
	p += 2;
	assert_int_equal(f[p], 0);	/* little endian */
	assert_int_equal(f[p + 1], 8);	/* long size */
	p += 2;
	assert_int_equal(get(f + p, 4), PAGE);
	p += 4;
	assert_memory_equal(f + p, "header_page", 12);
	p += 12;
	assert_int_equal(get(f + p, 8), sizeof(header_page) - 1);
	p += 8;
	assert_memory_equal(f + p, header_page, sizeof(header_page) - 1);
	p += sizeof(header_page) - 1;
	assert_memory_equal(f + p, "header_event", 13);
	p += 13;
	assert_int_equal(get(f + p, 8), sizeof(header_event) - 1);
	p += 8 + sizeof(header_event) - 1;
	assert_int_equal(get(f + p, 4), 1);	/* one ftrace format */
	p += 4;
	assert_int_equal(get(f + p, 8), sizeof(print_format) - 1);
	p += 8;
	assert_memory_equal(f + p, print_format, sizeof(print_format) - 1);
	p += sizeof(print_format) - 1;
	assert_int_equal(get(f + p, 4), 1);	/* one system */
	p += 4;
	assert_string_equal((char *)f + p, "demo");
	p += 5;
	assert_int_equal(get(f + p, 4), 1);	/* one event in it */
	p += 4;
	assert_int_equal(get(f + p, 8), sizeof(demo_format) - 1);
	p += 8 + sizeof(demo_format) - 1;
	assert_int_equal(get(f + p, 4), 26);	/* kallsyms, 32-bit size */
	p += 4 + 26;
	assert_int_equal(get(f + p, 4), 0);	/* printk formats: empty */
	p += 4;
	assert_int_equal(get(f + p, 8), sizeof(cmdlines) - 1);	/* cmdlines, 64-bit size */
	p += 8;
	assert_memory_equal(f + p, cmdlines, sizeof(cmdlines) - 1);
	p += sizeof(cmdlines) - 1;
	assert_int_equal(get(f + p, 4), 2);	/* CPUs */
	p += 4;
	assert_memory_equal(f + p, "options  ", 10);
	p += 10;
	assert_int_equal(get(f + p, 2), TDW_OPT_CPUSTAT);
	assert_int_equal(get(f + p + 2, 4), 30);	/* strlen("CPU: 0\n...") + NUL */
	assert_string_equal((char *)f + p + 6, "CPU: 0\nentries: 0\noverrun: 7\n");
	p += 6 + 30;
	assert_int_equal(get(f + p, 2), TDW_OPT_TRACECLOCK);
	p += 6 + get(f + p + 2, 4);
	assert_int_equal(get(f + p, 2), 0);	/* end of options */
	p += 2;
	assert_memory_equal(f + p, "flyrecord", 10);
	p += 10;
	/* CPU 0 starts at the first page boundary after the table; CPU 1 right after it. */
	assert_int_equal(get(f + p, 8), (p + 32 + PAGE - 1) / PAGE * PAGE);
	assert_int_equal(get(f + p + 8, 8), PAGE);
	assert_int_equal(get(f + p + 16, 8), get(f + p, 8) + PAGE);
	assert_int_equal(get(f + p + 24, 8), PAGE);	/* 100 stray bytes dropped */
	assert_int_equal(len, get(f + p + 16, 8) + PAGE);
	/* The pages are copied verbatim: the print event's pid and text at their offsets. */
	assert_int_equal(get(f + b.page_off[0], 8), 1000000000ULL);
	assert_int_equal(get(f + b.page_off[0] + 24, 4), 4242);
	assert_string_equal((char *)f + b.page_off[1] + 36, "hello from cpu1");
	free(f);
	unlink(b.path);
}

static size_t budget;

static ssize_t fail_after_budget(int fd, const void *buf, size_t len)
{
	if (!budget) {
		errno = ENOSPC;
		return -1;
	}
	if (len > budget)
		len = budget;	/* a short write first, as a filling disk does */
	budget -= len;
	return write(fd, buf, len);
}

/* A disk that fills in CPU 1's page: CPU 0 is kept whole, CPU 1 cut, the table rewritten. */
static void test_enospc_cut(void **state)
{
	struct built b;
	size_t len;
	unsigned char *f;
	uint64_t table;
	int err;

	(void)state;
	/* Everything up to and including CPU 0's page, and half of CPU 1's. */
	budget = 0;
	assert_int_equal(write_file(&b, NULL, &err), 0);
	f = slurp(b.path, &len);
	free(f);
	unlink(b.path);
	budget = len - PAGE / 2;
	assert_int_equal(write_file(&b, fail_after_budget, &err), -ENOSPC);
	f = slurp(b.path, &len);
	assert_int_equal(len, b.page_off[1]);	/* truncated at CPU 1's start */
	/* The table follows "flyrecord". */
	for (table = 0; table + 10 < len; table++)
		if (!memcmp(f + table, "flyrecord", 10))
			break;
	table += 10;
	assert_int_equal(get(f + table + 8, 8), PAGE);		/* CPU 0 kept */
	assert_int_equal(get(f + table + 16, 8), b.page_off[1]);
	assert_int_equal(get(f + table + 24, 8), 0);		/* CPU 1 empty */
	free(f);
	unlink(b.path);
}

/*
 * kallsyms streamed from an fd: a 150,000-byte symbol text (more than two of the writer's
 * 64 KB chunks) must land behind its 32-bit size exactly, and the next section (printk, 3
 * bytes) right after it.  The expected bytes are the generator's own output.
 */
static void test_kallsyms_fd(void **state)
{
	enum { KS_LEN = 150000 };
	char src_path[] = "/tmp/test_tdw_ks_XXXXXX", out_path[] = "/tmp/test_tdw_XXXXXX";
	struct tdw_blob pk = { "a\n", 3 };
	unsigned char *f;
	char *ks;
	struct tdw w;
	size_t len;
	int src, out;

	(void)state;
	ks = malloc(KS_LEN);
	assert_non_null(ks);
	for (size_t i = 0; i < KS_LEN; i++)
		ks[i] = i % 50 == 49 ? '\n' : (char)('a' + i % 26);
	src = mkstemp(src_path);
	assert_true(src >= 0);
	assert_int_equal(write(src, ks, KS_LEN), KS_LEN);
	assert_int_equal(lseek(src, 0, SEEK_SET), 0);
	out = mkstemp(out_path);
	assert_true(out >= 0);
	tdw_init(&w, out, NULL);
	assert_int_equal(tdw_write_initial(&w, PAGE), 0);
	assert_int_equal(tdw_write_kallsyms_fd(&w, src), 0);
	assert_int_equal(tdw_write_printk(&w, &pk), 0);
	/* initial part: 10 magic + "6\0" + 2 flags + 4 page size = 18 bytes */
	assert_int_equal(w.pos, 18 + 4 + KS_LEN + 4 + 3);
	f = slurp(out_path, &len);
	assert_int_equal(len, w.pos);
	assert_int_equal(get(f + 18, 4), KS_LEN);
	assert_memory_equal(f + 22, ks, KS_LEN);
	assert_int_equal(get(f + 22 + KS_LEN, 4), 3);
	assert_memory_equal(f + 26 + KS_LEN, "a\n", 3);
	free(f);
	free(ks);
	close(src);
	close(out);
	unlink(src_path);
	unlink(out_path);
	tdw_release(&w);
}

/* The oracle: the real trace-cmd reads the file and shows both hand-built events. */
static void test_trace_cmd_reads_it(void **state)
{
	struct built b;
	char cmd[256], out[4096];
	size_t n;
	FILE *p;
	int err;

	(void)state;
	if (system("command -v trace-cmd >/dev/null 2>&1"))
		skip();
	assert_int_equal(write_file(&b, NULL, &err), 0);
	snprintf(cmd, sizeof(cmd), "trace-cmd report %s 2>&1", b.path);
	p = popen(cmd, "r");
	assert_non_null(p);
	n = fread(out, 1, sizeof(out) - 1, p);
	out[n] = 0;
	assert_int_equal(pclose(p), 0);
	/* No warning, two events at 1.0 s and 1.5 s with the pid's name from cmdlines. */
	assert_null(strstr(out, "warning"));
	assert_null(strstr(out, "trace-cmd:"));
	assert_non_null(strstr(out, "cpus=2"));
	assert_non_null(strstr(out, "demo-task-4242  [000]     1.000000: print:"));
	assert_non_null(strstr(out, "hello from cpu0"));
	assert_non_null(strstr(out, "demo-task-4242  [001]     1.500000: print:"));
	assert_non_null(strstr(out, "hello from cpu1"));
	snprintf(cmd, sizeof(cmd), "trace-cmd report --stat %s 2>&1", b.path);
	p = popen(cmd, "r");
	n = fread(out, 1, sizeof(out) - 1, p);
	out[n] = 0;
	pclose(p);
	assert_non_null(strstr(out, "overrun: 7"));
	unlink(b.path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layout),
		cmocka_unit_test(test_enospc_cut),
		cmocka_unit_test(test_kallsyms_fd),
		cmocka_unit_test(test_trace_cmd_reads_it),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
