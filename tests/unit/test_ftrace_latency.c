// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ftrace-latency reader: the documented examples (Documentation/ftrace.txt of
 * 2.6.26, Documentation/trace/ftrace.rst's 3.8 output), today's extra
 * migrate-disable flag column, markers, sched/event rows, quoting and wrapping.
 * Expected values were read off the sample lines by hand.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "fntrace_test_util.h"
#include "fntrace_parse.h"
#include "latscope/an_fntrace.h"

static void test_irqsoff_38(void **state)
{
	struct lat_loaded *l = fnt_load(LAT_SAMPLES_DIR "/ftrace-latency/3.8-irqsoff-16us.txt",
					NULL, NULL, NULL);
	const struct lat_fntrace *t = fnt_only(l, "ftrace-latency");
	const struct lat_fn_entry *e;

	(void)state;
	assert_string_equal(t->tracer, "irqsoff");
	assert_string_equal(t->version, "v1.1.5");
	assert_string_equal(t->kernel, "3.8.0-test+");
	assert_int_equal(t->latency_ns, 16000);
	assert_int_equal(t->entries_shown, 4);
	assert_int_equal(t->entries_total, 4);
	assert_int_equal(t->nr_cpus, 4);
	assert_string_equal(t->task_comm, "swapper/0");
	assert_int_equal(t->task_pid, 0);
	assert_string_equal(t->started_at, "run_timer_softirq");
	assert_string_equal(t->ended_at, "run_timer_softirq");
	assert_int_equal(t->n, 4);
	/* "  <idle>-0       0d.s2    0us+: _raw_spin_lock_irq <-run_timer_softirq" */
	e = &t->e[0];
	assert_string_equal(e->comm, "<idle>");
	assert_int_equal(e->pid, 0);
	assert_int_equal(e->cpu, 0);
	assert_int_equal(e->flags, LAT_FNF_IRQS_OFF | LAT_FNF_SOFTIRQ);
	assert_int_equal(e->preempt_count, 2);
	assert_int_equal(e->migrate, -1);
	assert_int_equal(e->mark, '+');
	assert_string_equal(e->function, "_raw_spin_lock_irq");
	assert_string_equal(e->parent, "run_timer_softirq");
	/* "0dNs3   17us :" */
	assert_int_equal(t->e[1].flags, LAT_FNF_IRQS_OFF | LAT_FNF_NEED_RESCHED | LAT_FNF_SOFTIRQ);
	assert_int_equal(t->e[1].time_ns, 17000);
	assert_int_equal(t->e[3].kind, LAT_FN_STACK);
	assert_int_equal(t->e[3].time_ns, 25000);
	assert_int_equal(t->nstack, 14);
	assert_string_equal(t->stack[0], "_raw_spin_unlock_irq");
	assert_string_equal(t->stack[13], "x86_64_start_kernel");
	assert_int_equal(l->blocks[0]->skipped_lines, 0);
	fnt_free(l);
}

static void test_preemptirqsoff_2626(void **state)
{
	struct lat_loaded *l = fnt_load(LAT_SAMPLES_DIR
					"/ftrace-latency/2.6.26-preemptirqsoff-105us.txt",
					NULL, NULL, NULL);
	const struct lat_fntrace *t = fnt_only(l, "ftrace-latency");

	(void)state;
	/* "# tracer:" names it; the unhashed title carries the version */
	assert_string_equal(t->tracer, "preemptirqsoff");
	assert_string_equal(t->kernel, "2.6.26-rc8");
	assert_int_equal(t->latency_ns, 105000);
	assert_int_equal(t->entries_shown, 183);
	assert_string_equal(t->task_comm, "sshd");
	assert_string_equal(t->started_at, "write_chan");
	assert_string_equal(t->ended_at, "__do_softirq");
	/* 56 entry rows in the sample (counted with grep), 5 "[...]" lines */
	assert_int_equal(t->n, 56);
	assert_int_equal(t->elisions, 5);
	/* "      ls-4473  0.N..    0us : preempt_schedule (write_chan)" */
	assert_string_equal(t->e[0].comm, "ls");
	assert_int_equal(t->e[0].flags, LAT_FNF_NEED_RESCHED);
	assert_int_equal(t->e[0].preempt_count, 0);
	assert_string_equal(t->e[0].parent, "write_chan");
	assert_true(t->e[4].gap_before);
	assert_int_equal(t->e[4].time_ns, 13000);
	/* "    sshd-4261  0d.H3   46us : idle_cpu (irq_enter)": hardirq inside softirq */
	for (size_t i = 0; i < t->n; i++)
		if (t->e[i].time_ns == 46000 && !strcmp(t->e[i].function, "idle_cpu"))
			assert_int_equal(t->e[i].flags, LAT_FNF_IRQS_OFF | LAT_FNF_HARDIRQ |
					 LAT_FNF_SOFTIRQ);
	assert_int_equal(l->blocks[0]->skipped_lines, 0);
	fnt_free(l);
}

static void test_wakeup_rt_sched_rows(void **state)
{
	struct lat_loaded *l = fnt_load(LAT_SAMPLES_DIR "/ftrace-latency/3.8-wakeup_rt-5us.txt",
					NULL, NULL, NULL);
	const struct lat_fntrace *t = fnt_only(l, "ftrace-latency");

	(void)state;
	assert_string_equal(t->tracer, "wakeup_rt");
	assert_int_equal(t->task_policy, 1);
	assert_int_equal(t->task_rt_prio, 5);
	assert_int_equal(t->n, 4);
	assert_int_equal(t->e[0].kind, LAT_FN_SCHED);
	assert_string_equal(t->e[0].text, "0:120:R   + [003]  2389: 94:R sleep");
	assert_string_equal(t->e[1].function, "ttwu_do_activate.constprop.87");
	assert_int_equal(t->e[3].kind, LAT_FN_SCHED);
	assert_int_equal(t->e[2].flags, LAT_FNF_IRQS_OFF);
	assert_int_equal(t->e[2].preempt_count, 3);
	fnt_free(l);
}

/* Today's layout: a migrate-disable column after the preempt depth; markers '#' and '!'. */
static const char modern[] =
	"# tracer: preemptirqsoff\n"
	"#\n"
	"# preemptirqsoff latency trace v1.1.5 on 6.8.0\n"
	"# --------------------------------------------------------------------\n"
	"# latency: 2100 us, #5/5, CPU#2 | (M:PREEMPT_DYNAMIC VP:0, KP:0, SP:0 HP:0 #P:8)\n"
	"#    -----------------\n"
	"#    | task: kworker/u16:3-1234 (uid:0 nice:0 policy:0 rt_prio:0)\n"
	"#    -----------------\n"
	"#  => started at: _raw_spin_lock_irqsave\n"
	"#  => ended at:   _raw_spin_unlock_irqrestore\n"
	"#\n"
	"#                    _------=> CPU#\n"
	"#                   / _-----=> irqs-off/BH-disabled\n"
	"#                  | / _----=> need-resched\n"
	"#                  || / _---=> hardirq/softirq\n"
	"#                  ||| / _--=> preempt-depth\n"
	"#                  |||| / _-=> migrate-disable\n"
	"#                  ||||| /     delay\n"
	"#  cmd     pid     |||||| time  |   caller\n"
	"#     \\   /        ||||||  \\    |    /\n"
	"kworker/-1234      2d..1.    0us!: _raw_spin_lock_irqsave <-some_driver_poll\n"
	"kworker/-1234      2d..1.  110us#: some_driver_wait\n"
	"   <-some_driver_poll\n"
	"kworker/-1234      2dNh2.  2080us : irq_enter_rcu <-sysvec_apic_timer_interrupt\n"
	"kworker/-1234      2d..11 2095us+: _raw_spin_unlock_irqrestore <-some_driver_poll\n"
	"kworker/-1234      2...1. 2110us : <stack trace>\n"
	" => some_driver_poll\n";

static void test_modern_migrate_column(void **state)
{
	size_t warn;
	struct lat_loaded *l = fnt_load(NULL, modern, NULL, &warn);
	const struct lat_fntrace *t = fnt_only(l, "ftrace-latency");

	(void)state;
	assert_string_equal(t->model, "PREEMPT_DYNAMIC");
	assert_int_equal(t->nr_cpus, 8);
	assert_string_equal(t->task_comm, "kworker/u16:3");
	assert_int_equal(t->task_pid, 1234);
	assert_int_equal(t->n, 5);
	assert_string_equal(t->e[0].comm, "kworker/");
	assert_int_equal(t->e[0].cpu, 2);
	assert_int_equal(t->e[0].preempt_count, 1);
	assert_int_equal(t->e[0].migrate, 0);
	assert_int_equal(t->e[0].mark, '!');
	/* wrapped: "<-some_driver_poll" on its own line is joined */
	assert_int_equal(t->e[1].mark, '#');
	assert_true(t->e[1].joined);
	assert_string_equal(t->e[1].parent, "some_driver_poll");
	assert_int_equal(t->joined_lines, 1);
	assert_int_equal(t->e[2].flags, LAT_FNF_IRQS_OFF | LAT_FNF_NEED_RESCHED | LAT_FNF_HARDIRQ);
	assert_int_equal(t->e[2].preempt_count, 2);
	assert_int_equal(t->e[3].migrate, 1);
	assert_int_equal(t->e[3].time_ns, 2095000);
	assert_int_equal(t->e[4].kind, LAT_FN_STACK);
	assert_int_equal(t->nstack, 1);
	assert_int_equal(warn, 0);
	fnt_free(l);
}

static void test_rows_and_probe(void **state)
{
	struct lat_fn_entry e;
	const struct lat_format *f = lat_format_find("ftrace-latency");

	(void)state;
	memset(&e, 0, sizeof(e));
	assert_int_equal(fnt_parse_row(FNT_FTRACE,
		"  <idle>-0       2d.h4    1us : sched_wakeup: comm=sleep pid=5882 prio=94", &e), 1);
	assert_int_equal(e.kind, LAT_FN_EVENT);
	assert_string_equal(e.function, "sched_wakeup");
	assert_string_equal(e.text, "comm=sleep pid=5882 prio=94");
	free(e.comm);
	free(e.function);
	free(e.text);
	memset(&e, 0, sizeof(e));
	/* flags must be 4 or 5 characters of the known letters */
	assert_int_equal(fnt_parse_row(FNT_FTRACE, "  bash-1 0dq.1 1us : a <-b", &e), 0);
	assert_int_equal(fnt_parse_row(FNT_FTRACE, "  bash-1 0d.1 1us : a <-b", &e), 0);
	assert_int_equal(f->probe("preemption latency trace v1.1.4 on 2.6.12", 41), 0);
	assert_int_equal(f->probe("# tracer: wakeup\n# wakeup latency trace v1.1.5 on 3.8", 51), 95);
	assert_int_equal(f->line_kind("# tracer: irqsoff", 17), LAT_LINE_HEAD);
	assert_int_equal(f->line_kind("preemption latency trace v1.1.4 on x", 36), LAT_LINE_NO);
	assert_int_equal(f->line_kind(" => sub_preempt_count", 21), LAT_LINE_ROW);
	/* a dump pasted from below its latency line opens there (is_excerpt_head()) */
	assert_int_equal(f->line_kind("#  => started at: do_IRQ", 24), LAT_LINE_HEAD);
	assert_int_equal(f->line_kind("#  => ended at:   do_IRQ", 24), LAT_LINE_SOFT);
}

static const struct lat_fn_blame *blame_of(const struct lat_fntrace_result *r, const char *fn)
{
	for (size_t i = 0; i < r->nfn; i++)
		if (!strcmp(r->fn[i].function, fn))
			return &r->fn[i];
	fail_msg("%s not in the blame table", fn);
	return NULL;
}

/*
 * Galbraith, LKML 2023-05-21, 6.4-rt wakeup_RT (QP-decoded): the PREEMPT_RT
 * lazy patch's CPU + 7 flag columns "0dn.h5..".
 */
static void test_rt_lazy_columns(void **state)
{
	size_t warn;
	struct lat_loaded *l = fnt_load(LAT_SAMPLES_DIR
					"/ftrace-latency/6.4-rt-wakeup_RT-lazy-160us.txt",
					NULL, NULL, &warn);
	const struct lat_fntrace *t = fnt_only(l, "ftrace-latency");
	const struct lat_fntrace_result *r = l->blocks[0]->analysis;
	const struct lat_fn_entry *e;

	(void)state;
	assert_string_equal(t->tracer, "wakeup_RT");
	assert_string_equal(t->model, "preempt_rt");
	assert_int_equal(t->latency_ns, 160000);
	assert_int_equal(t->entries_shown, 116);
	assert_int_equal(t->cpu, 0);
	assert_int_equal(t->nr_cpus, 8);
	assert_int_equal(t->n, 116);
	assert_int_equal(t->layout, LAT_FNL_RT_LAZY7);
	assert_int_equal(l->blocks[0]->skipped_lines, 0);
	assert_int_equal(warn, 0);
	/* line 21 "  <idle>-0         0dn.h5..    0us :        0:120:R   + [000] ..." */
	e = &t->e[0];
	assert_int_equal(e->line, 21);
	assert_int_equal(e->kind, LAT_FN_SCHED);
	assert_int_equal(e->flags, LAT_FNF_IRQS_OFF | LAT_FNF_NEED_RESCHED | LAT_FNF_HARDIRQ);
	assert_int_equal(e->preempt_count, 5);
	assert_int_equal(e->lazy_depth, 0);
	assert_int_equal(e->migrate, 0);
	/* "  <idle>-0         0dn..1..    4us : idle_cpu <-irq_exit_rcu" */
	e = &t->e[21];
	assert_string_equal(e->function, "idle_cpu");
	assert_int_equal(e->flags, LAT_FNF_IRQS_OFF | LAT_FNF_NEED_RESCHED);
	assert_int_equal(e->preempt_count, 1);
	/* the last row "0d...3..  160us :        0:120:R ==> [000] ..." */
	e = &t->e[115];
	assert_int_equal(e->kind, LAT_FN_SCHED);
	assert_int_equal(e->flags, LAT_FNF_IRQS_OFF);
	assert_int_equal(e->preempt_count, 3);
	/* rtl8169_interrupt 6 us -> napi_schedule_prep 81 us */
	assert_string_equal(r->fn[0].function, "rtl8169_interrupt");
	assert_int_equal(r->fn[0].self_ns, 75000);
	/* preempt_count_add: 82 -> 110 and 110 -> 149 us, and 2 us over its other rows */
	assert_int_equal(blame_of(r, "preempt_count_add")->self_ns, 69000);
	assert_true(r->has_wakeup);
	assert_int_equal(r->wake_entry, 0);
	assert_int_equal(r->mark_mismatch, 0);
	fnt_free(l);
}

/*
 * Not from a real dump (none found with PREEMPT_LAZY, 6.12+): the need-resched
 * letters of trace_print_lat_fmt() once lazy preemption is in mainline:
 * 'l' lazy, 'L' lazy + preempt, 'b' need + lazy, 'B' all three.
 */
static void test_lazy_letters(void **state)
{
	static const struct {
		const char *row;
		unsigned flags;
	} rows[] = {
		{ "  bash-1 0.l.1. 1us : a <-b", LAT_FNF_RESCHED_LAZY },
		{ "  bash-1 0.L.1. 1us : a <-b", LAT_FNF_NEED_RESCHED | LAT_FNF_RESCHED_LAZY },
		{ "  bash-1 0db.1. 1us : a <-b",
		  LAT_FNF_IRQS_OFF | LAT_FNF_NEED_RESCHED | LAT_FNF_RESCHED_LAZY },
		{ "  bash-1 0DB.1. 1us : a <-b", LAT_FNF_IRQS_OFF | LAT_FNF_BH_OFF |
		  LAT_FNF_NEED_RESCHED | LAT_FNF_RESCHED_LAZY },
		{ "  bash-1 0.pZ1. 1us : a <-b",
		  LAT_FNF_NEED_RESCHED | LAT_FNF_NMI | LAT_FNF_HARDIRQ },
	};

	(void)state;
	for (size_t i = 0; i < LAT_ARRAY_SIZE(rows); i++) {
		struct lat_fn_entry e;

		memset(&e, 0, sizeof(e));
		assert_int_equal(fnt_parse_row(FNT_FTRACE, rows[i].row, &e), 1);
		assert_int_equal(e.flags, rows[i].flags);
		free(e.comm);
		free(e.function);
		free(e.parent);
	}
}

/* ftrace.rst (4.20): irqsoff with options/display-graph. */
static void test_display_graph(void **state)
{
	size_t warn;
	struct lat_loaded *l = fnt_load(LAT_SAMPLES_DIR
					"/ftrace-latency/4.20-irqsoff-display-graph-3751us.txt",
					NULL, NULL, &warn);
	const struct lat_fntrace *t = fnt_only(l, "ftrace-latency");
	const struct lat_fntrace_result *r = l->blocks[0]->analysis;
	const struct lat_fn_blame *f;

	(void)state;
	assert_int_equal(t->latency_ns, 3751000);
	assert_int_equal(t->entries_shown, 274);
	assert_string_equal(t->task_comm, "bash");
	assert_true(t->graph);
	assert_int_equal(t->n, 13);
	assert_int_equal(l->blocks[0]->skipped_lines, 0);
	assert_int_equal(warn, 0);
	/* "     0 us |   0)   bash-1507    |  d..1 |   0.378 us    |    do_raw_spin_trylock();" */
	assert_int_equal(t->e[1].graph, LAT_FNG_LEAF);
	assert_int_equal(t->e[1].depth, 1);
	assert_int_equal(t->e[1].dur_ns, 378);
	assert_int_equal(t->e[1].preempt_count, 1);
	assert_int_equal(t->e[1].flags, LAT_FNF_IRQS_OFF);
	assert_string_equal(t->e[1].comm, "bash");
	assert_int_equal(t->e[2].graph, LAT_FNG_OPEN);
	assert_string_equal(t->e[2].function, "set_track");
	/* "     4 us | ... |   1.107 us    |            }" closes get_stack_info (depth 5) */
	assert_int_equal(t->e[8].graph, LAT_FNG_CLOSE);
	assert_int_equal(t->e[8].depth, 5);
	assert_int_equal(t->e[8].time_ns, 4000);
	assert_true(t->e[9].gap_before);
	assert_int_equal(t->e[12].kind, LAT_FN_STACK);
	assert_int_equal(t->e[12].time_ns, 3792000);
	assert_int_equal(t->nstack, 14);
	/* get_stack_info: 1.107 us, of which in_task_stack 0.351 us */
	f = blame_of(r, "get_stack_info");
	assert_int_equal(f->total_ns, 1107);
	assert_int_equal(f->self_ns, 756);
	assert_int_equal(blame_of(r, "do_raw_spin_unlock")->self_ns, 516);
	/* set_track, save_stack_trace, __save_stack_trace, __unwind_start: cut by "[...]" */
	assert_int_equal(r->graph_unclosed, 4);
	assert_int_equal(r->graph_unmatched, 0);
	assert_int_equal(blame_of(r, "set_track")->total_ns, 0);
	fnt_free(l);
}

#define GRAPH_HDR "# tracer: irqsoff\n" \
	"# irqsoff latency trace v1.1.5 on 5.10.0\n" \
	"# latency: 20 us, #7/7, CPU#1 | (M:desktop VP:0, KP:0, SP:0 HP:0 #P:4)\n" \
	"#    | task: bash-100 (uid:0 nice:0 policy:0 rt_prio:0)\n"

/* Constructed (documented layout): nesting, markers, an unmatched "}" naming its function. */
static void test_graph_nesting(void **state)
{
	static const char text[] = GRAPH_HDR
		"   0 us |   1)   bash-100    |  d..1 |               |  outer() {\n"
		"   1 us |   1)   bash-100    |  d..1 |   2.000 us    |    a();\n"
		"   3 us |   1)   bash-100    |  d..1 |               |    b() {\n"
		"   4 us |   1)   bash-100    |  d..1 |   1.500 us    |      c();\n"
		"  16 us |   1)   bash-100    |  d..1 | + 12.500 us   |    }\n"
		"  16 us |   1)   bash-100    |  d..1 | + 16.250 us   |  }\n"
		"  17 us |   1)   bash-100    |  d..1 | ! 5.000 us    |  } /* early */\n";
	struct lat_loaded *l = fnt_load(NULL, text, NULL, NULL);
	const struct lat_fntrace *t = fnt_only(l, "ftrace-latency");
	const struct lat_fntrace_result *r = l->blocks[0]->analysis;
	const struct lat_fn_blame *f;

	(void)state;
	assert_int_equal(t->n, 7);
	assert_int_equal(t->e[4].mark, '+');
	assert_int_equal(t->e[4].dur_ns, 12500);
	f = blame_of(r, "outer");
	assert_int_equal(f->total_ns, 16250);
	assert_int_equal(f->self_ns, 16250 - 2000 - 12500);
	f = blame_of(r, "b");
	assert_int_equal(f->total_ns, 12500);
	assert_int_equal(f->self_ns, 11000);
	assert_int_equal(blame_of(r, "c")->self_ns, 1500);
	f = blame_of(r, "early");
	assert_int_equal(f->total_ns, 5000);
	assert_int_equal(f->self_ns, 0);
	assert_int_equal(f->calls, 0);
	assert_int_equal(r->graph_unmatched, 1);
	assert_int_equal(r->graph_unclosed, 0);
	assert_string_equal(r->fn[0].function, "b");
	/* markers are checked against the durations: '+' 12.5 and 16.25 us agree, '!' 5 us not */
	assert_int_equal(r->mark_checked, 3);
	assert_int_equal(r->mark_mismatch, 1);
	fnt_free(l);
}

/*
 * A note typed after an entry (Galbraith, LKML 2024, samples/mail/011 line 272,
 * decoded): the row is read, the note kept; a row that reads as it is keeps no
 * note, and text after a row that is neither an arrow nor words stays an error.
 */
static void test_row_notes(void **state)
{
	struct lat_fn_entry e;

	(void)state;
	memset(&e, 0, sizeof(e));
	assert_int_equal(fnt_parse_row(FNT_FTRACE,
		"   <...>-88        4dN...   11us*: isolate_lru_folios+0x0/0x390 "
		"<-shrink_inactive_list+0x110/0x3e0  <== hmmm", &e), 1);
	assert_string_equal(e.function, "isolate_lru_folios");
	assert_string_equal(e.parent, "shrink_inactive_list");
	assert_int_equal(e.mark, '*');
	assert_int_equal(e.time_ns, 11000);
	assert_string_equal(e.note, "<== hmmm");
	free(e.comm);
	free(e.function);
	free(e.parent);
	free(e.note);
	/* words after two blanks, no arrow */
	memset(&e, 0, sizeof(e));
	assert_int_equal(fnt_parse_row(FNT_FTRACE,
		"  bash-1 0d..1 3us : a <-b   this is the one", &e), 1);
	assert_string_equal(e.parent, "b");
	assert_string_equal(e.note, "this is the one");
	free(e.comm);
	free(e.function);
	free(e.parent);
	free(e.note);
	/* the -RT tracer's v1.0.x row, "(parent)" then the note */
	memset(&e, 0, sizeof(e));
	assert_int_equal(fnt_parse_row(FNT_RT,
		"00010001 0.562ms (+0.559ms): do_timer (timer_interrupt) <-- here", &e), 1);
	assert_string_equal(e.function, "do_timer");
	assert_string_equal(e.parent, "timer_interrupt");
	assert_string_equal(e.note, "<-- here");
	free(e.function);
	free(e.parent);
	free(e.note);
	memset(&e, 0, sizeof(e));
	assert_int_equal(fnt_line_kind(FNT_RT,
		"00010001 0.562ms (+0.559ms): do_timer (timer_interrupt) <-- here", 64), LAT_LINE_ROW);
	/* a plain row has no note */
	assert_int_equal(fnt_parse_row(FNT_FTRACE, "  bash-1 0d..1 3us : a <-b", &e), 1);
	assert_null(e.note);
	free(e.comm);
	free(e.function);
	free(e.parent);
	memset(&e, 0, sizeof(e));
	/* one blank and a number, or trace syntax, is not a note */
	assert_int_equal(fnt_parse_row(FNT_FTRACE, "  bash-1 0d..1 3us : a <-b 42", &e), 0);
	assert_int_equal(fnt_parse_row(FNT_FTRACE, "  bash-1 0d..1 3us : a <-b  (x)", &e),
			 0);
	assert_null(e.note);
}

/*
 * Entries a mailer joined on one line (3.8-irqsoff-16us.txt lines 21-23 joined
 * with blanks, as samples/paste/3.8-irqsoff-16us-rows-joined.txt): each is read
 * with that line's number; a line whose second piece does not read stays one
 * malformed line.
 */
static void test_joined_rows(void **state)
{
	struct lat_loaded *l = fnt_load(LAT_SAMPLES_DIR "/paste/3.8-irqsoff-16us-rows-joined.txt",
					NULL, NULL, NULL);
	const struct lat_fntrace *t = fnt_only(l, "ftrace-latency");

	(void)state;
	assert_int_equal(t->n, 4);
	assert_int_equal(t->split_lines, 1);
	assert_int_equal(l->blocks[0]->skipped_lines, 0);
	assert_string_equal(t->e[0].function, "_raw_spin_lock_irq");
	assert_string_equal(t->e[1].function, "_raw_spin_unlock_irq");
	assert_string_equal(t->e[2].function, "trace_hardirqs_on");
	assert_int_equal(t->e[1].time_ns, 17000);
	assert_int_equal(t->e[0].line, 21);
	assert_int_equal(t->e[2].line, 21);
	assert_int_equal(t->e[3].kind, LAT_FN_STACK);
	assert_int_equal(t->e[3].line, 22);
	fnt_free(l);
	l = fnt_load(NULL, "# tracer: irqsoff\n# latency: 16 us, #2/2, CPU#0\n"
		     "  <idle>-0  0d.s2  0us+: a <-b   <idle>-0  0dNs3 17us : c <-d e f\n", NULL,
		     NULL);
	t = fnt_only(l, "ftrace-latency");
	assert_int_equal(t->n, 0);
	assert_int_equal(l->blocks[0]->skipped_lines, 1);
	fnt_free(l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_irqsoff_38),
		cmocka_unit_test(test_preemptirqsoff_2626),
		cmocka_unit_test(test_wakeup_rt_sched_rows),
		cmocka_unit_test(test_modern_migrate_column),
		cmocka_unit_test(test_rows_and_probe),
		cmocka_unit_test(test_rt_lazy_columns),
		cmocka_unit_test(test_lazy_letters),
		cmocka_unit_test(test_display_graph),
		cmocka_unit_test(test_graph_nesting),
		cmocka_unit_test(test_row_notes),
		cmocka_unit_test(test_joined_rows),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
