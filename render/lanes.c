// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * CPU lanes of an event trace, the whole trace: per CPU and time bin the share
 * a task ran and the share in irq/softirq handlers (the rest idle or not
 * known), the average run-queue depth as a line, and the stalls the analysis
 * found (no events while a switch was owed) as red bands.  All from the
 * wakeup analysis (result->activity, result->stalls).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "latscope/an_wakeup.h"
#include "render_priv.h"

static const struct rd_rgb busy_rgb = { 0.36, 0.56, 0.78 };
static const struct rd_rgb irq_rgb = { 0.85, 0.55, 0.10 };
static const struct rd_rgb rq_rgb = { 0.45, 0.20, 0.60 };

static void lanes_release(struct rd_chart *c)
{
	struct rd_lanes_layout *l = c->priv;

	if (l)
		free(l->cpu);
	free(l);
	c->priv = NULL;
}

static double lane_top(const struct rd_lanes_layout *l, size_t k)
{
	return l->lane_y0 + (double)k * (l->lane_h + l->lane_gap);
}

static int lanes_layout(struct rd_chart *c, cairo_t *m, const void *data,
			const struct lat_render_opts *o, char *msg, size_t msglen)
{
	const struct rd_lanes_input *in = data;
	const struct lat_wake_activity *a = in->r->activity;
	struct rd_lanes_layout *l = calloc(1, sizeof(*l));
	double span;
	char d[32], title[240];
	size_t len;

	if (!l) {
		snprintf(msg, msglen, "out of memory");
		return -LAT_ENOMEM;
	}
	c->priv = l;
	if (!a || !a->nbins || !a->ncpus) {
		snprintf(msg, msglen, "no CPU activity in this trace (no switch, irq or wait)");
		return -LAT_EEMPTY;
	}
	l->cpu = calloc(a->ncpus, sizeof(*l->cpu));
	if (!l->cpu) {
		snprintf(msg, msglen, "out of memory");
		return -LAT_ENOMEM;
	}
	for (size_t i = 0; i < a->ncpus; i++)
		if (a->cpu[i].seen)
			l->cpu[l->nlanes++] = (int32_t)i;
	l->nbins = a->nbins;
	l->bin_ns = a->bin_ns;
	/* shares are of the trace's length, the last bin's end may pass it */
	span = rd_dsub((int64_t)in->r->last_ns, (int64_t)a->t0_ns);
	if (span < 1)
		span = (double)a->nbins * (double)a->bin_ns;
	for (size_t i = 0; i < a->ncpus; i++)
		for (size_t k = 0; k < a->nbins; k++)
			l->rq_max = fmax(l->rq_max, (double)a->cpu[i].rq_area[k] /
					 (double)a->bin_ns);
	c->has_y = 0;
	rd_font(m, RD_LABEL_PT, 1);
	c->lane_label_w = rd_text_width(m, "CPU 000");
	c->x = (struct rd_axis){ .lo = 0, .hi = span, .unit = LAT_UNIT_NS };
	snprintf(c->x.title, sizeof(c->x.title), "time since the first event");
	/* the trace's length, not widened to a round number: the lanes fill the width */
	c->legend[c->nlegend++] = (struct rd_legend_item){ "a task ran", busy_rgb, RD_LEG_BOX };
	c->legend[c->nlegend++] = (struct rd_legend_item){ "irq / softirq", irq_rgb,
							    RD_LEG_BOX };
	c->legend[c->nlegend] = (struct rd_legend_item){ .rgb = rq_rgb, .style = RD_LEG_LINE };
	snprintf(c->legend[c->nlegend++].text, sizeof(c->legend[0].text),
		 "run queue (avg waiting, 0-%.3g)", l->rq_max);
	c->legend[c->nlegend++] = (struct rd_legend_item){ "stall (no events)", rd_alert_rgb,
							    RD_LEG_BOX };
	snprintf(title, sizeof(title), "%s%sCPU lanes, %s bins", in->title ? in->title : "",
		 in->title ? " \xc2\xb7 " : "", rd_fmt_dur_chart((double)a->bin_ns, d,
								sizeof(d)));
	rd_chart_title(c, o, "cpus", title);
	for (size_t k = 0; k < l->nlanes; k++) {
		const struct lat_act_cpu *p = &a->cpu[l->cpu[k]];
		double busy = 0, irq = 0;

		for (size_t b = 0; b < a->nbins; b++) {
			busy += (double)p->busy[b];
			irq += (double)p->irq[b];
		}
		len = strlen(c->subtitle);
		snprintf(c->subtitle + len, sizeof(c->subtitle) - len, "%sCPU %d ran %.0f%%, "
			 "irq %.1f%%", k ? " \xc2\xb7 " : "", l->cpu[k], 100 * busy / span,
			 100 * irq / span);
	}
	len = strlen(c->subtitle);
	if (in->r->nstalls_total)
		snprintf(c->subtitle + len, sizeof(c->subtitle) - len, " \xc2\xb7 %llu stall%s, %s",
			 (unsigned long long)in->r->nstalls_total,
			 in->r->nstalls_total == 1 ? "" : "s",
			 rd_fmt_dur_chart((double)in->r->stall_ns_total, d, sizeof(d)));
	else
		snprintf(c->subtitle + len, sizeof(c->subtitle) - len, " \xc2\xb7 no stall");
	rd_frame_layout(c, m);
	l->lane_gap = l->nlanes > 1 ? fmin(12, c->plot.h * 0.04) : 0;
	l->lane_y0 = c->plot.y + 4;
	/* the lanes share the plot's whole height (with 4 px above and below) */
	l->lane_h = (c->plot.h - 8 - l->lane_gap * (double)(l->nlanes - 1)) / (double)l->nlanes;
	if (l->lane_h < 4)
		l->lane_h = 4;
	return 0;
}

/* The x pixel of @ns since t0. */
static double xof(const struct rd_chart *c, double ns)
{
	return rd_axis_map(&c->x, ns);
}

static void draw_lane(cairo_t *cr, const struct rd_chart *c, const struct rd_lanes_layout *l,
		      const struct lat_act_cpu *p, double y, double bin)
{
	double h = l->lane_h;

	cairo_set_source_rgb(cr, 0.965, 0.965, 0.965);
	cairo_rectangle(cr, c->plot.x, y, c->plot.w, h);
	cairo_fill(cr);
	/* busy from the bottom, irq on top of it: shares of the bin, grouped by colour */
	for (int pass = 0; pass < 2; pass++) {
		for (size_t k = 0; k < l->nbins; k++) {
			double x0 = xof(c, (double)k * bin), x1 = xof(c, (double)(k + 1) * bin);
			double fb = fmin(1, (double)p->busy[k] / bin);
			double fi = fmin(1 - fb, (double)p->irq[k] / bin);

			if (fi < 0)
				fi = 0;
			if (!pass && fb > 0)
				cairo_rectangle(cr, x0, y + h * (1 - fb), x1 - x0, h * fb);
			else if (pass && fi > 0)
				cairo_rectangle(cr, x0, y + h * (1 - fb - fi), x1 - x0, h * fi);
		}
		rd_set_rgb(cr, pass ? irq_rgb : busy_rgb, pass ? 1 : 0.85);
		cairo_fill(cr);
	}
	if (l->rq_max <= 0)
		return;
	/* run-queue depth, 0 at the lane bottom, the largest average at its top */
	for (size_t k = 0; k < l->nbins; k++) {
		double v = (double)p->rq_area[k] / bin / l->rq_max;
		double x0 = xof(c, (double)k * bin), x1 = xof(c, (double)(k + 1) * bin);
		double yy = y + h - 1 - (h - 2) * v;

		if (!k)
			cairo_move_to(cr, x0, yy);
		else
			cairo_line_to(cr, x0, yy);
		cairo_line_to(cr, x1, yy);
	}
	rd_set_rgb(cr, rq_rgb, 1);
	cairo_set_line_width(cr, 1.3);
	cairo_stroke(cr);
}

static void lanes_draw(cairo_t *cr, const struct rd_chart *c, const void *data,
		       const struct lat_render_opts *o)
{
	const struct rd_lanes_input *in = data;
	const struct lat_wake_activity *a = in->r->activity;
	struct rd_lanes_layout *l = c->priv;
	double bin = (double)a->bin_ns;
	char lab[32];

	(void)o;
	for (size_t k = 0; k < l->nlanes; k++) {
		double y = lane_top(l, k);

		draw_lane(cr, c, l, &a->cpu[l->cpu[k]], y, bin);
		rd_font(cr, fmin(RD_LABEL_PT, l->lane_h * 0.8), 1);
		cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
		snprintf(lab, sizeof(lab), "CPU %d", l->cpu[k]);
		rd_text(cr, c->plot.x - 8, y + l->lane_h / 2 + 4, 2, lab);
	}
	/* stalls over the lanes they silenced (every lane for a machine-wide one) */
	l->drawn_stalls = 0;
	for (size_t i = 0; i < in->r->nstalls; i++) {
		const struct lat_wake_stall *s = &in->r->stalls[i];
		double x0 = xof(c, rd_dsub((int64_t)s->from_ns, (int64_t)a->t0_ns));
		double x1 = xof(c, rd_dsub((int64_t)s->to_ns, (int64_t)a->t0_ns));
		int drawn = 0;

		for (size_t k = 0; k < l->nlanes; k++) {
			double y = lane_top(l, k);

			if (s->cpu >= 0 && s->cpu != l->cpu[k])
				continue;
			rd_set_rgb(cr, rd_alert_rgb, 0.35);
			cairo_rectangle(cr, x0, y, fmax(x1 - x0, 3), l->lane_h);
			cairo_fill(cr);
			/* a marker on top so that a short stall shows on a long trace */
			rd_set_rgb(cr, rd_alert_rgb, 1);
			cairo_move_to(cr, (x0 + x1) / 2 - 5, y);
			cairo_line_to(cr, (x0 + x1) / 2 + 5, y);
			cairo_line_to(cr, (x0 + x1) / 2, y + 8);
			cairo_close_path(cr);
			cairo_fill(cr);
			drawn = 1;
		}
		l->drawn_stalls += drawn;
	}
}

const struct rd_chart_ops rd_lanes_ops = {
	.name = "cpus",
	.layout = lanes_layout,
	.draw = lanes_draw,
	.release = lanes_release,
};

int rd_render_lanes(const struct lat_block *b, const struct lat_render_opts *o,
		     struct lat_render_buf *out)
{
	struct rd_lanes_input in = { b->analysis, b->title };

	if (!in.r || !in.r->activity) {
		snprintf(out->msg, sizeof(out->msg), "the analysis kept no CPU activity "
			 "(lat_analyze_opts.activity)");
		return -LAT_EEMPTY;
	}
	return rd_chart_run(&rd_lanes_ops, &in, o, out);
}
