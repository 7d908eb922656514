// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Clear messages for what is not a latency input (issue 28): an Android
 * atrace of trace markers only (no sched_switch) is said to hold no waits,
 * not to miss events; atrace's "TRACE:" line above the ftrace text is no
 * malformed row; the idle task in a latency tracer's header ("| task: -0")
 * is pid 0.  The literals follow the public outputs named in each comment;
 * the values are read off them.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "latscope/fntrace.h"
#include "old_logs_util.h"

/*
 * `atrace` as Android prints it: "TRACE:", then ftrace text; an app's trace
 * markers only (tracing_mark_write), as in the trace quoted by the systrace
 * question on Stack Overflow (15684715) and Android's own atrace dumps.
 */
static const char atrace[] =
	"TRACE:\n"
	"# tracer: nop\n"
	"#\n"
	"# entries-in-buffer/entries-written: 6/6   #P:1\n"
	"#\n"
	"#           TASK-PID   CPU#  ||||    TIMESTAMP  FUNCTION\n"
	"#              | |       |   ||||       |         |\n"
	"          atrace-4367  [000] ...1 453966.016965: tracing_mark_write: "
	"trace_event_clock_sync: parent_ts=453966.187500\n"
	"  UICompThread_0-270   [000] ...1 453967.735306: tracing_mark_write: S|240|OVL0-DSI|856112\n"
	" frame_update_wo-113   [000] ...1 453967.754543: tracing_mark_write: F|113|OVL0-DSI|856112\n"
	"  UICompThread_0-270   [000] ...1 453969.752747: tracing_mark_write: S|240|OVL0-DSI|856113\n"
	" frame_update_wo-113   [000] ...1 453969.772422: tracing_mark_write: F|113|OVL0-DSI|856113\n";

static void test_atrace_markers(void **state)
{
	struct lat_loaded *l;
	const struct lat_block *b;
	const struct lat_finding *f;

	(void)state;
	l = old_logs_load_text(atrace, NULL);
	assert_int_equal(l->nblocks, 1);
	b = l->blocks[0];
	assert_int_equal(b->skipped_lines, 0);
	assert_int_equal(l->diag.nwarn, 0);		/* "TRACE:" is atrace's, not a row */
	/* four tasks take turns on CPU0 with no switch recorded: nothing went missing */
	assert_null(old_logs_finding(b, "missing-events"));
	assert_non_null(f = old_logs_finding(b, "no-switches"));
	assert_int_equal(f->sev, LAT_SEV_INFO);
	assert_non_null(strstr(f->message, "none of the 5 events is a sched_switch"));
	old_logs_free(l);
}

/*
 * The same CPU with switches recorded: a task that runs where the last
 * switch said another ran is still a switch gone missing.
 */
static void test_switches_missing(void **state)
{
	static const char text[] =
		"# tracer: nop\n"
		"#\n"
		"           <idle>-0     [000] d..2.   100.000100: sched_switch: prev_comm=swapper/0 "
		"prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=a next_pid=10 next_prio=120\n"
		"                b-11    [000] ...1.   100.000200: tracing_mark_write: hello\n";
	struct lat_loaded *l;

	(void)state;
	l = old_logs_load_text(text, NULL);
	assert_int_equal(l->nblocks, 1);
	assert_non_null(old_logs_finding(l->blocks[0], "missing-events"));
	assert_null(old_logs_finding(l->blocks[0], "no-switches"));
	old_logs_free(l);
}

/*
 * An irqsoff trace of 2.6.33.1 (the header of IBM developerWorks' "ftrace
 * 简介", 2010; 6.6-rt prints the same): the idle task has no comm there.
 */
static void test_idle_task_header(void **state)
{
	static const char text[] =
		"# tracer: irqsoff\n"
		"#\n"
		"# irqsoff latency trace v1.1.5 on 2.6.33.1\n"
		"# --------------------------------------------------------------------\n"
		"# latency: 34380 us, #6/6, CPU#1 | (M:desktop VP:0, KP:0, SP:0 HP:0 #P:2)\n"
		"#    -----------------\n"
		"#    | task: -0 (uid:0 nice:0 policy:0 rt_prio:0)\n"
		"#    -----------------\n"
		"#  => started at: reschedule_interrupt\n"
		"#  => ended at:   restore_all_notrace\n"
		"#\n"
		"#                  _------=> CPU#\n"
		"#                 / _-----=> irqs-off\n"
		"#                | / _----=> need-resched\n"
		"#                || / _---=> hardirq/softirq\n"
		"#                ||| / _--=> preempt-depth\n"
		"#                |||| /_--=> lock-depth\n"
		"#                |||||/     delay\n"
		"#  cmd    pid    |||||| time  |   caller\n"
		"#    \\   /       ||||||   \\   |   /\n"
		"<idle>-0       1dN... 4285us!: trace_hardirqs_off_thunk <-reschedule_interrupt\n"
		"<idle>-0       1dN... 34373us+: smp_reschedule_interrupt <-reschedule_interrupt\n";
	struct lat_loaded *l;
	const struct lat_fntrace *t;

	(void)state;
	l = old_logs_load_text(text, NULL);
	assert_int_equal(l->nblocks, 1);
	t = l->blocks[0]->fntrace;
	assert_non_null(t);
	assert_string_equal(t->task_comm, "<idle>");
	assert_int_equal(t->task_pid, 0);
	assert_null(old_logs_finding(l->blocks[0], "header-unknown"));
	old_logs_free(l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_atrace_markers),
		cmocka_unit_test(test_switches_missing),
		cmocka_unit_test(test_idle_task_header),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
