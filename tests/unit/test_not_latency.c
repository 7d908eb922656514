// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Clear messages for what is not a latency input (issue 28): an Android
 * atrace of trace markers only (no sched_switch) is said to hold no waits,
 * not to miss events; atrace's "TRACE:" line above the ftrace text is no
 * malformed row; the idle task in a latency tracer's header ("| task: -0")
 * is pid 0.  The atrace dump and the irqsoff trace are public examples (their
 * sources below); the third text is made here.  The values are read off them.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "latscope/an_wakeup.h"
#include "latscope/fntrace.h"
#include "old_logs_util.h"

/*
 * `atrace` as Android prints it: "TRACE:", then ftrace text, here an app's
 * trace markers only (tracing_mark_write, no "sched" category).  Verbatim, a
 * dump of 2019-07-11 from a Chinese notes file on GitHub about atrace
 * ("atrace后台抓取trace数据方法", section "trace log 格式"; the code index
 * finds it by "OVL0-DSI" and does not name its repository).  Not kept in
 * samples/: it holds no latency number, so no chart (render-samples.sh).
 * 13 events on CPU0 (`grep -c tracing_mark_write`), 11 of them by another
 * task than the one before (atrace twice, then UICompThread_0 and
 * frame_update_wo by turns).
 */
static const char atrace[] =
	"TRACE:\n"
	"# tracer: nop\n"
	"#\n"
	"# entries-in-buffer/entries-written: 21/24   #P:1\n"
	"# enabled events:\n"
	"# kernel time now: 453985.091953\n"
	"# UTC time:\t2019-07-11 06:34:35.321188\n"
	"# android time:\t2019-07-11 14:34:35.321188\n"
	"#\n"
	"#                              _-----=> irqs-off\n"
	"#                             / _----=> need-resched\n"
	"#                            | / _---=> hardirq/softirq\n"
	"#                            || / _--=> preempt-depth\n"
	"#                            ||| /     delay\n"
	"#           TASK-PID   CPU#  ||||    TIMESTAMP  FUNCTION\n"
	"#              | |       |   ||||       |         |\n"
	"          atrace-4367  [000] ...1 453966.016965: tracing_mark_write: "
	"trace_event_clock_sync: parent_ts=453966.187500\n"
	"          atrace-4367  [000] ...1 453966.016978: tracing_mark_write: "
	"trace_event_clock_sync: realtime_ts=1562826856246\n"
	"  UICompThread_0-270   [000] ...1 453967.735306: tracing_mark_write: "
	"S|240|OVL0-DSI|856112\n"
	" frame_update_wo-113   [000] ...1 453967.754543: tracing_mark_write: "
	"F|113|OVL0-DSI|856112\n"
	"  UICompThread_0-270   [000] ...1 453969.752747: tracing_mark_write: "
	"S|240|OVL0-DSI|856113\n"
	" frame_update_wo-113   [000] ...1 453969.772422: tracing_mark_write: "
	"F|113|OVL0-DSI|856113\n"
	"  UICompThread_0-270   [000] ...1 453971.767667: tracing_mark_write: "
	"S|240|OVL0-DSI|856114\n"
	" frame_update_wo-113   [000] ...1 453971.790263: tracing_mark_write: "
	"F|113|OVL0-DSI|856114\n"
	"  UICompThread_0-270   [000] ...1 453973.768107: tracing_mark_write: "
	"S|240|OVL0-DSI|856115\n"
	" frame_update_wo-113   [000] ...1 453973.790901: tracing_mark_write: "
	"F|113|OVL0-DSI|856115\n"
	"  UICompThread_0-270   [000] ...1 453975.781464: tracing_mark_write: "
	"S|240|OVL0-DSI|856116\n"
	" frame_update_wo-113   [000] ...1 453975.808737: tracing_mark_write: "
	"F|113|OVL0-DSI|856116\n"
	"  UICompThread_0-270   [000] ...1 453977.782070: tracing_mark_write: "
	"S|240|OVL0-DSI|856117\n";

static void test_atrace_markers(void **state)
{
	struct lat_loaded *l;
	const struct lat_block *b;
	const struct lat_finding *f;
	const struct lat_wakeup_result *r;

	(void)state;
	l = old_logs_load_text(atrace, NULL);
	assert_int_equal(l->nblocks, 1);
	b = l->blocks[0];
	assert_int_equal(b->skipped_lines, 0);
	assert_int_equal(l->diag.nwarn, 0);		/* "TRACE:" is atrace's, not a row */
	/* the tasks take turns on CPU0 with no switch recorded: nothing went missing */
	assert_null(old_logs_finding(b, "missing-events"));
	assert_non_null(f = old_logs_finding(b, "no-switches"));
	assert_int_equal(f->sev, LAT_SEV_INFO);
	assert_non_null(strstr(f->message, "none of the 13 events is a sched_switch"));
	r = b->analysis;
	assert_int_equal(r->switch_breaks, 0);
	assert_int_equal(r->nhealth, 1);
	assert_int_equal(r->health[0].events, 13);
	assert_int_equal(r->health[0].breaks, 0);	/* nor in the CPU's health */
	old_logs_free(l);
}

/*
 * The same dump's numbers: its async slices OVL0-DSI, begun by "S|240|OVL0-DSI|N"
 * and ended by "F|113|OVL0-DSI|N" on another thread, matched by name and cookie:
 *   856112 453967.735306 -> 453967.754543  19.237 ms
 *   856113 453969.752747 -> 453969.772422  19.675 ms
 *   856114 453971.767667 -> 453971.790263  22.596 ms
 *   856115 453973.768107 -> 453973.790901  22.794 ms
 *   856116 453975.781464 -> 453975.808737  27.273 ms
 *   856117 453977.782070 -> (none)          open at the end
 * sum 111.575 ms; the clock-sync markers are no slices.
 */
static void test_atrace_slices(void **state)
{
	struct lat_loaded *l;
	const struct lat_wakeup_result *r;
	const struct lat_wake_mslice *x;

	(void)state;
	l = old_logs_load_text(atrace, NULL);
	r = l->blocks[0]->analysis;
	assert_int_equal(r->nmslices, 1);
	x = &r->mslices[0];
	assert_string_equal(x->name, "OVL0-DSI");
	assert_int_equal(x->async, 1);
	assert_int_equal(x->count, 5);
	assert_int_equal(x->min_ns, 19237000);
	assert_int_equal(x->max_ns, 27273000);
	assert_int_equal(x->sum_ns, 111575000);
	assert_int_equal(x->open, 1);
	assert_int_equal(r->mslice_orphans, 0);
	assert_int_equal(r->mslice_dropped, 0);
	old_logs_free(l);
}

/*
 * Made here: B/E slices nest per thread ("E" ends the thread's latest), an
 * "E" of a thread with nothing open is an orphan, an async end of a name
 * never begun too.  draw: 10.000000 -> 10.004000 (4 ms), 10.010000 ->
 * 10.012000 (2 ms); measure: 10.001000 -> 10.001500 (0.5 ms).
 */
static void test_marker_slices_nest(void **state)
{
	static const char text[] =
		"# tracer: nop\n"
		"#\n"
		"             app-100   [000] ...1    10.000000: tracing_mark_write: B|100|draw\n"
		"             app-100   [000] ...1    10.001000: tracing_mark_write: B|100|measure\n"
		"             app-100   [000] ...1    10.001500: tracing_mark_write: E|100\n"
		"              rt-200   [001] ...1    10.002000: tracing_mark_write: E|200\n"
		"             app-100   [000] ...1    10.004000: tracing_mark_write: E|100\n"
		"             app-100   [000] ...1    10.010000: tracing_mark_write: B|100|draw\n"
		"             app-100   [000] ...1    10.012000: tracing_mark_write: E\n"
		"              rt-200   [001] ...1    10.013000: tracing_mark_write: F|200|x|7\n";
	struct lat_loaded *l;
	const struct lat_wakeup_result *r;

	(void)state;
	l = old_logs_load_text(text, NULL);
	r = l->blocks[0]->analysis;
	assert_int_equal(r->nmslices, 2);
	assert_string_equal(r->mslices[0].name, "draw");
	assert_int_equal(r->mslices[0].async, 0);
	assert_int_equal(r->mslices[0].count, 2);
	assert_int_equal(r->mslices[0].min_ns, 2000000);
	assert_int_equal(r->mslices[0].max_ns, 4000000);
	assert_int_equal(r->mslices[0].sum_ns, 6000000);
	assert_string_equal(r->mslices[1].name, "measure");
	assert_int_equal(r->mslices[1].count, 1);
	assert_int_equal(r->mslices[1].max_ns, 500000);
	assert_int_equal(r->mslices[1].open, 0);
	assert_int_equal(r->mslice_orphans, 2);
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
		"           <idle>-0     [000] d..2.   100.000100: sched_switch: "
		"prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> "
		"next_comm=a next_pid=10 next_prio=120\n"
		"                b-11    [000] ...1.   100.000200: tracing_mark_write: hello\n";
	struct lat_loaded *l;
	const struct lat_wakeup_result *r;

	(void)state;
	l = old_logs_load_text(text, NULL);
	assert_int_equal(l->nblocks, 1);
	assert_non_null(old_logs_finding(l->blocks[0], "missing-events"));
	assert_null(old_logs_finding(l->blocks[0], "no-switches"));
	r = l->blocks[0]->analysis;
	assert_int_equal(r->health[0].breaks, 1);
	old_logs_free(l);
}

/*
 * An irqsoff trace of 2.6.33.1 (IBM developerWorks' "ftrace 简介", 2010,
 * samples/ftrace-latency/2.6.33.1-irqsoff-idle-task-34380us.txt; 6.6-rt
 * prints the same header): the idle task has no comm there, "| task: -0".
 */
static void test_idle_task_header(void **state)
{
	struct lat_loaded *l;
	const struct lat_fntrace *t;

	(void)state;
	l = old_logs_load(LAT_SAMPLES_DIR
			  "/ftrace-latency/2.6.33.1-irqsoff-idle-task-34380us.txt", NULL);
	assert_int_equal(l->nblocks, 1);
	t = l->blocks[0]->fntrace;
	assert_non_null(t);
	assert_string_equal(t->task_comm, "<idle>");
	assert_int_equal(t->task_pid, 0);
	assert_int_equal(t->cpu, 1);				/* "CPU#1" */
	assert_null(old_logs_finding(l->blocks[0], "header-unknown"));
	old_logs_free(l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_atrace_markers),
		cmocka_unit_test(test_atrace_slices),
		cmocka_unit_test(test_marker_slices_nest),
		cmocka_unit_test(test_switches_missing),
		cmocka_unit_test(test_idle_task_header),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
