// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rt-lattrace reader: seed 002 (Lee Revell, LKML 2005-03-19) raw and extracted,
 * the compact non-verbose layout, mail quoting, wrapped lines, unknown types,
 * malformed rows.  Expected values were read off the input lines by hand.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "fntrace_test_util.h"
#include "fntrace_parse.h"
#include "latscope/report.h"
#include "latscope/an_fntrace.h"

static void check_seed002(const struct lat_fntrace *t, uint32_t first_line)
{
	const struct lat_fn_entry *e;

	assert_string_equal(t->tracer, "preemption");
	assert_string_equal(t->version, "v1.1.4");
	assert_string_equal(t->kernel, "2.6.12-rc1-RT-V0.7.41-00");
	assert_string_equal(t->model, "preempt");
	/* " latency: 3402 ïs, #4095/20285, CPU#0 | (M:preempt VP:0, KP:1, SP:1 HP:1 #P:1)" */
	assert_int_equal(t->latency_ns, 3402000);
	assert_int_equal(t->entries_shown, 4095);
	assert_int_equal(t->entries_total, 20285);
	assert_int_equal(t->cpu, 0);
	assert_int_equal(t->nr_cpus, 1);
	assert_string_equal(t->task_comm, "ksoftirqd/0");
	assert_int_equal(t->task_pid, 2);
	assert_int_equal(t->task_uid, 0);
	assert_int_equal(t->task_nice, -10);
	assert_int_equal(t->task_policy, 0);
	assert_int_equal(t->task_rt_prio, 0);
	/* (T1/#0), then #2 .. #51: index #1 is not in the dump */
	assert_int_equal(t->n, 51);
	assert_int_equal(t->header_line, first_line);
	assert_true(t->verbose);

	e = &t->e[0];
	assert_int_equal(e->index, 0);
	assert_int_equal(e->type, 1);
	assert_true(e->has_tsc);
	assert_int_equal(e->tsc_cycles, 2512920677720ULL);
	assert_string_equal(e->function, "<756f6a6b>");
	assert_string_equal(e->parent, "<6c616e72>");
	/* "+3971052.610ms": the tracer's delay to the hidden entry #1 */
	assert_int_equal(e->delay_ns, 3971052610000LL);
	assert_int_equal(e->line, first_line + 15);

	/* (T3/#4) <...>-2576 0dn.3 0ïs : try_to_wake_up+0x11e/0x140 <c01104fe> <<...>-2> (69 73): */
	e = &t->e[3];
	assert_int_equal(e->index, 4);
	assert_int_equal(e->kind, LAT_FN_SPECIAL_PID);
	assert_string_equal(e->comm, "<...>");
	assert_int_equal(e->pid, 2576);
	assert_string_equal(e->function, "try_to_wake_up");
	assert_string_equal(e->text, "<<...>-2> (69 73):");
	assert_int_equal(e->flags, LAT_FNF_IRQS_OFF | LAT_FNF_NEED_RESCHED);
	assert_int_equal(e->preempt_count, 3);
	assert_int_equal(e->time_ns, 0);
	assert_int_equal(e->mark, ' ');
	assert_false(e->has_tsc);

	/* (T6/#7) <...>-2576 0dn.1 1ïs < (1) */
	e = &t->e[6];
	assert_int_equal(e->index, 7);
	assert_int_equal(e->kind, LAT_FN_SYSRET);
	assert_string_equal(e->text, "(1)");
	assert_int_equal(e->time_ns, 1000);
	assert_int_equal(e->preempt_count, 1);

	/* (T1/#8) <...> 2576 0 2 00000001 00000008 [0002512920679575] 0.001ms (+0.000ms): ... */
	e = &t->e[7];
	assert_int_equal(e->index, 8);
	assert_int_equal(e->kind, LAT_FN_CALL);
	assert_int_equal(e->cpu, 0);
	assert_int_equal(e->flags, LAT_FNF_NEED_RESCHED);
	assert_int_equal(e->preempt_count, 1);
	assert_int_equal(e->tsc_cycles, 2512920679575ULL);
	assert_int_equal(e->time_ns, 1000);
	assert_int_equal(e->delay_ns, 0);
	assert_string_equal(e->function, "__journal_unfile_buffer");
	assert_string_equal(e->parent, "journal_commit_transaction");

	/* (T1/#10) ... 0000000a: the index column is hex */
	assert_int_equal(t->e[9].index, 10);
	/* last: (T1/#51) ... __brelse (__journal_remove_journal_head), 0.011ms */
	e = &t->e[50];
	assert_int_equal(e->index, 51);
	assert_string_equal(e->function, "__brelse");
	assert_int_equal(e->time_ns, 11000);
}

static void test_seed002_extracted(void **state)
{
	size_t warn;
	struct lat_loaded *l = fnt_load(LAT_SAMPLES_DIR "/rt-lattrace/seed002-revell-3402us.txt",
					NULL, NULL, &warn);

	(void)state;
	check_seed002(fnt_only(l, "rt-lattrace"), 1);
	assert_int_equal(l->blocks[0]->skipped_lines, 0);
	assert_int_equal(warn, 0);
	fnt_free(l);
}

static void test_seed002_raw_mail(void **state)
{
	struct lat_loaded *l = fnt_load(LAT_SAMPLES_DIR "/mail/002-revell-rt-latency-trace.txt",
					NULL, NULL, NULL);
	const struct lat_block *b = NULL;

	(void)state;
	for (size_t i = 0; i < l->nblocks; i++)
		if (l->blocks[i]->schema == LAT_SCHEMA_FNTRACE)
			b = l->blocks[i];
	assert_non_null(b);
	/* the header is line 46 of the mail, the last entry (#51) line 111; "etc" is 112 */
	assert_int_equal(b->first_line, 46);
	assert_int_equal(b->last_line, 111);
	check_seed002(b->fntrace, 46);
	fnt_free(l);
}

/* Quoted twice, one verbose entry wrapped by the mailer, an unknown type, a broken row. */
static const char quoted[] =
	"On Sat, someone wrote:\n"
	"> > preemption latency trace v1.1.4 on 2.6.12-RT\n"
	"> > ---------------------------------------------\n"
	"> >  latency: 120 \xc3\x82\xc2\xb5s, #6/9, CPU#1 | (M:rt VP:0, KP:1, SP:1 HP:1 #P:2)\n"
	"> >     | task: jackd-812 (uid:500 nice:0 policy:1 rt_prio:70)\n"
	"> (T1/#0) <...> 812 1 1 00000002 00000000 [0000000000010000] 0.000ms (+0.002ms): "
	"foo+0x1/0x10 <c0000001>\n"
	"> (bar+0x2/0x20 <c0000002>)\n"
	"> (T9/#1) something the reader does not know\n"
	"> (T1/#2) <...> 812 1 0 00000001 00000002 [0000000000013000] 0.003ms (+0.000ms): "
	"baz+0x3/0x30 <c0000003> (bar+0x9/0x20 <c0000009>)\n"
	"> (T1/#3) this row is broken\n"
	"> (T6/#4) <...>-812   1d..1    4\xc3\xaf" "s < (0)\n"
	"\n"
	"Thanks\n";

static void test_quoted_wrapped_unknown(void **state)
{
	size_t warn;
	struct lat_loaded *l = fnt_load(NULL, quoted, NULL, &warn);
	const struct lat_fntrace *t = fnt_only(l, "rt-lattrace");

	(void)state;
	assert_int_equal(t->latency_ns, 120000);
	assert_int_equal(t->entries_shown, 6);
	assert_int_equal(t->cpu, 1);
	assert_string_equal(t->task_comm, "jackd");
	assert_int_equal(t->task_rt_prio, 70);
	assert_int_equal(t->task_policy, 1);
	assert_int_equal(t->task_uid, 500);
	/* #0 (joined), #2, #4; #1 unknown, #3 malformed */
	assert_int_equal(t->n, 3);
	assert_int_equal(t->unknown_types, 1);
	assert_int_equal(t->joined_lines, 1);
	assert_int_equal(t->quoted_lines, 3);
	assert_true(t->e[0].joined);
	assert_string_equal(t->e[0].function, "foo");
	assert_string_equal(t->e[0].parent, "bar");
	assert_int_equal(t->e[0].delay_ns, 2000);
	assert_int_equal(t->e[0].line, 6);
	assert_int_equal(t->e[1].line, 9);
	assert_int_equal(t->e[1].index, 2);
	assert_int_equal(t->e[2].kind, LAT_FN_SYSRET);
	assert_int_equal(t->e[2].time_ns, 4000);
	assert_int_equal(t->e[2].flags, LAT_FNF_IRQS_OFF);
	assert_int_equal(l->blocks[0]->skipped_lines, 1);
	assert_int_equal(warn, 1);
	fnt_free(l);
}

/* The non-verbose layout of v1.1.5 (LKML 2006-03-14), with a "[ etc ]" cut in the middle. */
static const char compact[] =
	"preemption latency trace v1.1.5 on 2.6.16-rc1\n"
	"--------------------------------------------------------------------\n"
	" latency: 28130 us, #38020/38020, CPU#0 | (M:rt VP:0, KP:0, SP:0 HP:0)\n"
	"    -----------------\n"
	"    | task: acroread-29870 (uid:1000 nice:0 policy:0 rt_prio:0)\n"
	"    -----------------\n"
	"\n"
	"    Xorg-18254 0d.s2    1us : __trace_start_sched_wakeup (try_to_wake_up)\n"
	"    Xorg-18254 0d.s2    1us : __trace_start_sched_wakeup <<...>-29870> (73 0)\n"
	"    Xorg-18254 0d.s.    2us : wake_up_process (process_timeout)\n"
	"    Xorg-18254 0dn.2    3us < (2110048)\n"
	"\n"
	"[ etc ]\n"
	"\n"
	"    Xorg-18254 0dn.1 28067us+: preempt_schedule (unmap_vmas)\n"
	"   <...>-29870 0d..2 28126us : schedule <Xorg-18254> (76 73)\n"
	"   <...>-29870 0d..2 28130us : schedule (schedule)\n"
	"\n"
	"\n"
	"vim:ft=help\n";

static void test_compact_elision(void **state)
{
	struct lat_loaded *l = fnt_load(NULL, compact, NULL, NULL);
	const struct lat_fntrace *t = fnt_only(l, "rt-lattrace");

	(void)state;
	assert_string_equal(t->version, "v1.1.5");
	assert_int_equal(t->nr_cpus, -1);
	assert_int_equal(t->n, 7);
	assert_false(t->verbose);
	assert_int_equal(t->elisions, 1);
	assert_int_equal(t->e[0].kind, LAT_FN_CALL);
	assert_string_equal(t->e[0].comm, "Xorg");
	assert_int_equal(t->e[0].pid, 18254);
	assert_int_equal(t->e[0].flags, LAT_FNF_IRQS_OFF | LAT_FNF_SOFTIRQ);
	assert_string_equal(t->e[0].parent, "try_to_wake_up");
	assert_int_equal(t->e[1].kind, LAT_FN_SPECIAL_PID);
	assert_int_equal(t->e[2].preempt_count, 0);
	assert_int_equal(t->e[3].kind, LAT_FN_SYSRET);
	assert_false(t->e[3].gap_before);
	assert_true(t->e[4].gap_before);
	assert_int_equal(t->e[4].mark, '+');
	assert_int_equal(t->e[4].time_ns, 28067000);
	assert_int_equal(t->e[5].kind, LAT_FN_SPECIAL_PID);
	assert_string_equal(t->e[5].comm, "<...>");
	assert_int_equal(t->e[6].time_ns, 28130000);
	assert_int_equal(l->blocks[0]->skipped_lines, 0);
	fnt_free(l);
}

/*
 * Excerpt of Lee Revell's trace5.txt (LKML, 23 Feb 2005, "Re: More latency
 * regressions with 2.6.11-rc4-RT-V0.7.39-02"): "us" arrived as the Korean
 * syllable U+D0CE, cmdline (T4) and switch-marker (T3) entries, right-aligned comms.
 */
static const char trace5[] =
	"preemption latency trace v1.1.4 on 2.6.11-rc4-RT-V0.7.39-02\n"
	"--------------------------------------------------------------------\n"
	" latency: 197 \xed\x83\x8e, #74/74, CPU#0 | (M:preempt VP:0, KP:1, SP:1 HP:1 #P:1)\n"
	"    -----------------\n"
	"    | task: ksoftirqd/0-2 (uid:0 nice:-10 policy:0 rt_prio:0)\n"
	"    -----------------\n"
	"\n"
	"(T1/#0)            dmesg  3249 0 9 00000002 00000000 [0000163455166655] 0.000ms "
	"(+886841.090ms): <73656d64> (<61700067>)\n"
	"(T1/#2)            dmesg  3249 0 9 00000002 00000002 [0000163455167105] 0.000ms "
	"(+0.000ms): __trace_start_sched_wakeup+0x96/0xc0 <c012cbe6> (try_to_wake_up+0x81/0x150 "
	"<c010f911>)\n"
	"(T6/#4)    dmesg-3249  0dn.2    2\xed\x83\x8e < (1)\n"
	"(T4/#67) [ =>            dmesg ] 0.191ms (+0.000ms)\n"
	"(T1/#68)            <...>     2 0 1 00000002 00000044 [0000163455282330] 0.192ms "
	"(+0.000ms): __switch_to+0xb/0x1a0 <c0100f5b> (__schedule+0x2bd/0x630 <c027cc6d>)\n"
	"(T3/#69)    <...>-2     0d..2  193\xed\x83\x8e : __schedule+0x2ea/0x630 <c027cc9a> "
	"<dmesg-3249> (75 69): \n"
	"(T1/#73)            <...>     2 0 1 00000001 00000049 [0000163455284627] 0.196ms "
	"(+0.000ms): trace_stop_sched_switched+0xfe/0x150 <c012cd0e> (finish_task_switch+0x43/0x90 "
	"<c010fe23>)\n"
	"\n"
	"\n"
	"vim:ft=help\n";

static void test_trace5_korean_micro(void **state)
{
	size_t warn;
	struct lat_loaded *l = fnt_load(NULL, trace5, NULL, &warn);
	const struct lat_fntrace *t = fnt_only(l, "rt-lattrace");

	(void)state;
	assert_int_equal(t->latency_ns, 197000);
	assert_int_equal(t->entries_shown, 74);
	assert_int_equal(t->n, 7);
	assert_string_equal(t->e[0].comm, "dmesg");
	assert_int_equal(t->e[0].pid, 3249);
	/* flags 9 = irqs off | softirq */
	assert_int_equal(t->e[0].flags, LAT_FNF_IRQS_OFF | LAT_FNF_SOFTIRQ);
	assert_int_equal(t->e[2].kind, LAT_FN_SYSRET);
	assert_int_equal(t->e[2].time_ns, 2000);
	assert_int_equal(t->e[3].kind, LAT_FN_CMDLINE);
	assert_string_equal(t->e[3].comm, "dmesg");
	assert_int_equal(t->e[3].time_ns, 191000);
	assert_int_equal(t->e[4].pid, 2);
	assert_int_equal(t->e[4].index, 68);	/* 0x44 */
	assert_int_equal(t->e[5].kind, LAT_FN_SPECIAL_PID);
	assert_string_equal(t->e[5].function, "__schedule");
	assert_string_equal(t->e[5].text, "<dmesg-3249> (75 69):");
	assert_int_equal(t->e[5].time_ns, 193000);
	assert_string_equal(t->e[6].parent, "finish_task_switch");
	assert_int_equal(l->blocks[0]->skipped_lines, 0);
	assert_int_equal(warn, 0);
	fnt_free(l);
}

static void test_row_errors(void **state)
{
	struct lat_fn_entry e;

	(void)state;
	memset(&e, 0, sizeof(e));
	e.index = -1;
	/* the "(T1/#5)" prefix and the index column (6) disagree */
	assert_int_equal(fnt_parse_row(FNT_RT,
		"(T1/#5) <...> 1 0 0 00000000 00000006 [1] 0.000ms (+0.000ms): a (b)", &e), 0);
	assert_null(e.function);
	memset(&e, 0, sizeof(e));
	assert_int_equal(fnt_parse_row(FNT_RT, "(T7/#5) whatever", &e), -1);
	memset(&e, 0, sizeof(e));
	/* trace_special: "(v1 v2 v3)" in hex */
	assert_int_equal(fnt_parse_row(FNT_RT,
		"(T2/#9) <...>-7 0d..1 12us : foo+0x1/0x2 <c0000001> (1 2 ff)", &e), 1);
	assert_int_equal(e.kind, LAT_FN_SPECIAL);
	assert_string_equal(e.text, "(1 2 ff)");
	free(e.comm);
	free(e.function);
	free(e.text);
	/* the segmenter: "<-parent" rows belong to ftrace, not to this reader */
	assert_int_equal(lat_format_find("rt-lattrace")->line_kind(
		"  bash-1 0d..1 1us : a <-b", 26), LAT_LINE_NO);
	assert_int_equal(lat_format_find("rt-lattrace")->probe(
		"# tracer: irqsoff\n# irqsoff latency trace v1.1.5 on 3.8", 50), 0);
}

/* The block of @l whose title line is @line. */
static const struct lat_block *block_at(const struct lat_loaded *l, uint32_t line)
{
	for (size_t i = 0; i < l->nblocks; i++)
		if (l->blocks[i]->fntrace && l->blocks[i]->fntrace->header_line == line)
			return l->blocks[i];
	fail_msg("no block with its title at line %u", line);
	return NULL;
}

static int has_finding(const struct lat_block *b, const char *kind, const char *text)
{
	for (size_t i = 0; i < b->nfindings; i++)
		if (!strcmp(b->findings[i].kind, kind) &&
		    (!text || strstr(b->findings[i].message, text)))
			return 1;
	return 0;
}

/*
 * Mail 005 (Charbonnel, LKML 2004-08-31): a quoted 4-row fragment (lines 48-51),
 * then two v1.0.2 traces (titles at lines 61 and 107) with prose between.
 */
static void test_v102_two_traces(void **state)
{
	struct lat_loaded *l = fnt_load(LAT_SAMPLES_DIR
					"/mail/005-charbonnel-vp-1.0.2-two-traces.txt",
					NULL, NULL, NULL);
	const struct lat_block *b;
	const struct lat_fntrace *t;
	const struct lat_fntrace_result *r;

	(void)state;
	assert_int_equal(l->nblocks, 3);
	/* the quoted fragment: rows without a header */
	b = l->blocks[0];
	assert_int_equal(b->fntrace->n, 4);
	assert_int_equal(b->fntrace->e[0].line, 48);
	assert_true(has_finding(b, "header-missing", "from line 48"));

	b = block_at(l, 61);
	t = b->fntrace;
	r = b->analysis;
	assert_string_equal(t->version, "v1.0.2");
	assert_null(t->kernel);
	assert_string_equal(b->title, "preemption latency trace v1.0.2");
	/* " latency: 567 us, entries: 35 (35)" */
	assert_int_equal(t->latency_ns, 567000);
	assert_int_equal(t->entries_shown, 35);
	assert_int_equal(t->entries_total, 35);
	assert_int_equal(t->cpu, -1);
	assert_int_equal(t->latency_line, 63);
	/* "| task: swapper/0, uid:0 nice:0 policy:0 rt_prio:0" */
	assert_string_equal(t->task_comm, "swapper");
	assert_int_equal(t->task_pid, 0);
	assert_int_equal(t->task_nice, 0);
	assert_int_equal(t->task_policy, 0);
	assert_int_equal(t->n, 35);
	assert_int_equal(t->joined_lines, 1);
	assert_int_equal(t->layout, LAT_FNL_PREEMPT_WORD);
	/* line 70 "00010000 0.000ms (+0.000ms): do_IRQ (common_interrupt)": hardirq, depth 0 */
	assert_int_equal(t->e[0].line, 70);
	assert_int_equal(t->e[0].flags, LAT_FNF_HARDIRQ);
	assert_int_equal(t->e[0].preempt_count, 0);
	assert_string_equal(t->e[0].function, "do_IRQ");
	assert_string_equal(t->e[0].parent, "common_interrupt");
	/* line 77 "00010001 0.562ms (+0.559ms): do_timer (timer_interrupt)" */
	assert_int_equal(t->e[7].line, 77);
	assert_int_equal(t->e[7].preempt_count, 1);
	assert_int_equal(t->e[7].time_ns, 562000);
	assert_int_equal(t->e[7].delay_ns, 559000);
	/* the delay is the time since the previous row: all 34 agree that way */
	assert_true(r->delay_since_prev);
	assert_int_equal(r->delay_checked, 34);
	assert_int_equal(r->delay_mismatch, 0);
	/* mark_offset_tsc 0.003 -> do_timer 0.562 */
	assert_string_equal(r->fn[0].function, "mark_offset_tsc");
	assert_int_equal(r->fn[0].self_ns, 559000);
	assert_true(has_finding(b, "header-unknown", "CPU (line 63"));

	b = block_at(l, 107);
	assert_int_equal(b->fntrace->latency_ns, 624000);
	/* mask_and_ack_8259A 0.000 -> generic_redirect_hardirq 0.613 */
	r = b->analysis;
	assert_string_equal(r->fn[0].function, "mask_and_ack_8259A");
	assert_int_equal(r->fn[0].self_ns, 613000);
	fnt_free(l);
}

/* Schmidt, LKML 2004-11-16: v1.0.7 with a pid column and "(1) ((98))" special rows. */
static void test_v107_pid_column(void **state)
{
	struct lat_loaded *l = fnt_load(LAT_SAMPLES_DIR
					"/rt-lattrace/v1.0.7-schmidt-pid-column-63us.txt",
					NULL, NULL, NULL);
	const struct lat_fntrace *t = fnt_only(l, "rt-lattrace");
	const struct lat_fntrace_result *r = l->blocks[0]->analysis;

	(void)state;
	assert_string_equal(t->kernel, "2.6.10-rc2-mm1-RT-V0.7.27-10");
	assert_int_equal(t->nr_cpus, 1);
	assert_string_equal(t->task_comm, "IRQ 8");
	assert_int_equal(t->task_pid, 13);
	assert_int_equal(t->task_nice, -5);
	assert_int_equal(t->task_rt_prio, 98);
	assert_int_equal(t->n, 22);
	/* "    5 80010004 0.000ms (+0.000ms): trace_start_sched_wakeup (try_to_wake_up)" */
	assert_int_equal(t->e[0].pid, 5);
	assert_null(t->e[0].comm);
	assert_int_equal(t->e[0].flags, LAT_FNF_IRQS_OFF | LAT_FNF_HARDIRQ);
	assert_int_equal(t->e[0].preempt_count, 4);
	/* "    5 80010003 0.000ms (+0.000ms): (1) ((98))" */
	assert_int_equal(t->e[1].kind, LAT_FN_SPECIAL);
	assert_string_equal(t->e[1].text, "(1) ((98))");
	/* "    5 00000000 0.062ms (+0.000ms): preempt_schedule (_mmx_memcpy)": irqs on */
	assert_int_equal(t->e[11].flags, 0);
	assert_int_equal(t->e[15].pid, 13);
	/* __do_softirq 0.001 (+0.061) -> 0.062: the delay is to the next row here */
	assert_false(r->delay_since_prev);
	assert_int_equal(r->delay_mismatch, 0);
	assert_string_equal(r->fn[0].function, "__do_softirq");
	assert_int_equal(r->fn[0].self_ns, 61000);
	/* irqs off (bit 31) from the first row to preempt_schedule at 0.062 ms */
	assert_int_equal(r->off[LAT_FN_OFF_IRQS].duration_ns, 62000);
	assert_int_equal(r->off[LAT_FN_OFF_IRQS].end, 11);
	assert_true(r->has_wakeup);
	assert_int_equal(r->wake_entry, 0);
	fnt_free(l);
}

/* Molnar's v1.0 announcement (LKML 2004-08-13): no preempt-count column, process:/nice:. */
static void test_v10_no_count_column(void **state)
{
	struct lat_loaded *l = fnt_load(LAT_SAMPLES_DIR
					"/rt-lattrace/v1.0-molnar-announce-121us.txt",
					NULL, NULL, NULL);
	const struct lat_fntrace *t = fnt_only(l, "rt-lattrace");

	(void)state;
	assert_string_equal(t->version, "v1.0");
	assert_int_equal(t->latency_ns, 121000);
	assert_int_equal(t->entries_shown, 1032);
	assert_string_equal(t->task_comm, "default.hotplug");
	assert_int_equal(t->task_pid, 1470);
	assert_int_equal(t->task_uid, 0);
	assert_int_equal(t->task_nice, -10);
	assert_int_equal(t->task_policy, 0);
	assert_int_equal(t->task_rt_prio, 0);
	assert_int_equal(t->n, 6);
	assert_int_equal(t->elisions, 1);
	assert_false(t->e[0].flags_known);
	assert_string_equal(t->e[0].function, "page_address");
	assert_string_equal(t->e[0].parent, "kmap_high");
	/* "  [...]" before "0.118ms (+0.000ms): page_slot (set_page_address)" */
	assert_true(t->e[4].gap_before);
	assert_int_equal(t->e[4].time_ns, 118000);
	assert_int_equal(t->layout, LAT_FNL_NONE);
	fnt_free(l);

	/* Revell, 2004-08-19: v1.0.1, the v1.0.2 header with v1.0 rows */
	l = fnt_load(LAT_SAMPLES_DIR "/rt-lattrace/v1.0.1-revell-no-count-74us.txt", NULL, NULL,
		     NULL);
	t = fnt_only(l, "rt-lattrace");
	assert_string_equal(t->task_comm, "XFree86");
	assert_int_equal(t->task_pid, 493);
	assert_int_equal(t->n, 9);
	assert_int_equal(t->e[7].delay_ns, 67000);
	assert_int_equal(t->e[7].time_ns, 72000);
	{
		const struct lat_fntrace_result *r = l->blocks[0]->analysis;

		assert_true(r->delay_since_prev);
		assert_int_equal(r->delay_checked, 8);
		assert_int_equal(r->delay_mismatch, 0);
		assert_string_equal(r->fn[0].function, "__switch_to");
		assert_int_equal(r->fn[0].self_ns, 68000);
	}
	fnt_free(l);
}

/* v1.1.1 (Johnson, 2004-12-01) and v1.1.3 (Foley, 2004-12-07, a MIME attachment). */
static void test_v111_v113(void **state)
{
	struct lat_loaded *l = fnt_load(LAT_SAMPLES_DIR
					"/rt-lattrace/v1.1.1-johnson-one-entry-102us.txt",
					NULL, NULL, NULL);
	const struct lat_fntrace *t = fnt_only(l, "rt-lattrace");
	const struct lat_fn_entry *e;

	(void)state;
	/* " latency: 102 us, entries: 1(1)    |   [VP:0 KP:1 SP:1 HP:1 #CPUS:2]" */
	assert_int_equal(t->entries_shown, 1);
	assert_int_equal(t->entries_total, 1);
	assert_int_equal(t->nr_cpus, 2);
	assert_string_equal(t->task_comm, "cat");
	assert_int_equal(t->task_pid, 9789);
	/* "<unknown-9789 80000000 0.000ms (+0.000ms): buffered_rmqueue (__alloc_pages)" */
	assert_int_equal(t->n, 1);
	assert_string_equal(t->e[0].comm, "<unknown");
	assert_int_equal(t->e[0].pid, 9789);
	assert_int_equal(t->e[0].flags, LAT_FNF_IRQS_OFF);
	assert_int_equal(t->e[0].preempt_count, 0);
	fnt_free(l);

	l = fnt_load(LAT_SAMPLES_DIR "/rt-lattrace/v1.1.3-foley-mime-39us.txt", NULL, NULL, NULL);
	t = fnt_only(l, "rt-lattrace");
	/* " latency: 39 us, #42/42 | (M:rt VP:0, KP:1, SP:1 HP:1 #P:2)": no CPU# */
	assert_int_equal(t->latency_ns, 39000);
	assert_int_equal(t->entries_shown, 42);
	assert_int_equal(t->cpu, -1);
	assert_int_equal(t->nr_cpus, 2);
	assert_string_equal(t->model, "rt");
	assert_string_equal(t->task_comm, "IRQ 8");
	assert_int_equal(t->task_pid, 677);
	assert_int_equal(t->n, 39);
	assert_int_equal(t->layout, LAT_FNL_V113);
	/* "   amlat-4973  0-h.3    0탎 : __trace_start_sched_wakeup (try_to_wake_up)" */
	e = &t->e[0];
	assert_string_equal(e->comm, "amlat");
	assert_int_equal(e->cpu, 0);
	assert_int_equal(e->flags, LAT_FNF_HARDIRQ);
	assert_int_equal(e->preempt_count, 3);
	/* "   amlat-4973  0        2탎 : wake_up_process <IRQ 8-677> (0 1): " */
	e = &t->e[3];
	assert_int_equal(e->kind, LAT_FN_SPECIAL_PID);
	assert_false(e->flags_known);
	assert_int_equal(e->cpu, 0);
	assert_int_equal(e->time_ns, 2000);
	/* "   IRQ 8-677   0-..1   43탎 : trace_stop_sched_switched (finish_task_switch)" */
	e = &t->e[38];
	assert_string_equal(e->comm, "IRQ 8");
	assert_int_equal(e->time_ns, 43000);
	assert_int_equal(e->flags, 0);
	assert_int_equal(((const struct lat_fntrace_result *)l->blocks[0]->analysis)->mark_checked,
			 38);
	fnt_free(l);
}

/* Facts the header did not give read "unknown" in the text report, never -1 or "?". */
static void test_unknown_text(void **state)
{
	struct lat_loaded *l = fnt_load(LAT_SAMPLES_DIR
					"/mail/005-charbonnel-vp-1.0.2-two-traces.txt",
					NULL, NULL, NULL);
	struct lat_report_input in = { 0 };
	struct lat_analyze_opts o;
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	(void)state;
	lat_analyze_opts_init(&o);
	in.path = "005";
	in.format = "rt-lattrace";
	in.blocks = l->blocks;
	in.nblocks = l->nblocks;
	lat_report_text(out, &in, 1, &o);
	fclose(out);
	assert_null(strstr(buf, "CPU#-1"));
	assert_null(strstr(buf, "--1"));
	assert_null(strstr(buf, "-1 announced"));
	assert_null(strstr(buf, "on ?"));
	assert_non_null(strstr(buf, "tracer unknown (no header): latency unknown, CPU unknown, "
				    "task unknown"));
	assert_non_null(strstr(buf, "4 present of unknown announced (unknown logged)"));
	assert_non_null(strstr(buf, "latency 567 us, CPU unknown, task swapper (pid 0)"));
	free(buf);
	fnt_free(l);
}

/*
 * Heskett, LKML 2004-12-07: the same v1.1.3 trace twice, prose between, three
 * rows wrapped by KMail; the last one's "(finish_task_switch)" is the line
 * right after the block.
 */
static void test_v113_wrapped_last_row(void **state)
{
	struct lat_loaded *l = fnt_load(LAT_SAMPLES_DIR "/mail/006-heskett-v1.1.3-two-traces.txt",
					NULL, NULL, NULL);

	(void)state;
	assert_int_equal(l->nblocks, 2);
	for (size_t i = 0; i < 2; i++) {
		const struct lat_fntrace *t = l->blocks[i]->fntrace;
		const struct lat_fn_entry *e = &t->e[t->n - 1];

		assert_int_equal(t->latency_ns, 5000);
		assert_int_equal(t->entries_shown, 22);
		assert_string_equal(t->task_comm, "X");
		assert_int_equal(t->task_pid, 3215);
		assert_int_equal(t->task_nice, -1);
		assert_int_equal(t->n, 19);
		assert_int_equal(t->joined_lines, 3);
		assert_string_equal(t->e[0].function, "__trace_start_sched_wakeup");
		assert_string_equal(t->e[0].parent, "try_to_wake_up");
		assert_string_equal(e->function, "trace_stop_sched_switched");
		assert_string_equal(e->parent, "finish_task_switch");
		assert_int_equal(e->time_ns, 6000);
		assert_int_equal(l->blocks[i]->skipped_lines, 0);
	}
	assert_int_equal(l->blocks[0]->fntrace->e[18].line, 79);
	fnt_free(l);
}

/*
 * Vogel, LKML 2004-08-21: a v1.0.1 header whose entries are only linked
 * ("full trace is posted on: http://..."): a block of the header alone (lines
 * 28-36), its facts read, no entry, finding entries-absent.  A title without a
 * "latency:" line (prose quoting the tracer's name) is still no block.
 */
static void test_header_only(void **state)
{
	struct lat_loaded *l = fnt_load(LAT_SAMPLES_DIR
					"/rt-lattrace/v1.0.1-vogel-header-only-408us.txt",
					NULL, NULL, NULL);
	const struct lat_fntrace *t = fnt_only(l, "rt-lattrace");
	struct lat_loaded l2 = { 0 };
	char tmp[] = "/tmp/latscope-fnt-XXXXXX";
	const char *prose = "Hi,\npreemption latency trace v1.0.1\nis what I see, nothing else.\n";
	FILE *null = fopen("/dev/null", "w");
	int fd;

	(void)state;
	assert_int_equal(l->blocks[0]->first_line, 28);
	assert_int_equal(l->blocks[0]->last_line, 36);
	assert_int_equal(t->n, 0);
	assert_int_equal(t->latency_ns, 408000);
	assert_int_equal(t->entries_shown, 2273);
	assert_int_equal(t->entries_total, 2273);
	assert_string_equal(t->task_comm, "ksoftirqd/0");
	assert_int_equal(t->task_pid, 2);
	assert_int_equal(t->task_nice, -10);
	assert_string_equal(t->started_at, "netif_receive_skb");
	assert_string_equal(t->ended_at, "netif_receive_skb");
	assert_true(has_finding(l->blocks[0], "entries-absent", "none of the 2273 announced"));
	assert_false(has_finding(l->blocks[0], "truncated-dump", NULL));
	fnt_free(l);

	fd = mkstemp(tmp);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, prose, strlen(prose)), (ssize_t)strlen(prose));
	close(fd);
	assert_int_equal(lat_load(&l2, tmp, &(struct lat_read_opts){ .diag = null }),
			 -LAT_EEMPTY);
	unlink(tmp);
	lat_loaded_release(&l2);
	fclose(null);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_seed002_extracted),
		cmocka_unit_test(test_seed002_raw_mail),
		cmocka_unit_test(test_quoted_wrapped_unknown),
		cmocka_unit_test(test_compact_elision),
		cmocka_unit_test(test_trace5_korean_micro),
		cmocka_unit_test(test_row_errors),
		cmocka_unit_test(test_v102_two_traces),
		cmocka_unit_test(test_v107_pid_column),
		cmocka_unit_test(test_v10_no_count_column),
		cmocka_unit_test(test_v111_v113),
		cmocka_unit_test(test_unknown_text),
		cmocka_unit_test(test_v113_wrapped_last_row),
		cmocka_unit_test(test_header_only),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
