// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Text on charts: UTF-8 cleaning (cairo refuses invalid UTF-8 and then draws
 * nothing more on that context), the fixed font, measuring and elision.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "render_priv.h"

static const char repl[] = "\xef\xbf\xbd";	/* U+FFFD */

/* Length of the valid UTF-8 sequence at @s (@n bytes left), 0 if invalid. */
static size_t utf8_seq(const unsigned char *s, size_t n, uint32_t *cp)
{
	size_t len;
	uint32_t c;

	if (s[0] < 0x80) {
		*cp = s[0];
		return 1;
	}
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		len = 2;
		c = s[0] & 0x1f;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		len = 3;
		c = s[0] & 0x0f;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		len = 4;
		c = s[0] & 0x07;
	} else {
		return 0;
	}
	if (n < len)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = (c << 6) | (s[i] & 0x3f);
	}
	/* overlong forms, surrogates, past U+10FFFF */
	if ((len == 3 && c < 0x800) || (len == 4 && (c < 0x10000 || c > 0x10ffff)) ||
	    (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*cp = c;
	return len;
}

char *rd_utf8_clean(const char *in, size_t len, char *out, size_t outlen)
{
	const unsigned char *s = (const unsigned char *)in;
	size_t o = 0, i = 0;

	if (!outlen)
		return out;
	if (!in)
		in = "", s = (const unsigned char *)in, len = 0;
	if (len == (size_t)-1)
		len = strlen(in);
	while (i < len && s[i]) {
		uint32_t cp = 0;
		size_t n = utf8_seq(s + i, len - i, &cp);
		const char *src = (const char *)s + i;
		size_t w = n;

		if (!n || cp < 0x20 || (cp >= 0x7f && cp < 0xa0)) {
			if (cp == '\t' && n) {
				src = " ";
				w = 1;
			} else {
				src = repl;
				w = 3;
			}
			if (!n)
				n = 1;
		}
		if (o + w >= outlen)
			break;
		memcpy(out + o, src, w);
		o += w;
		i += n;
	}
	out[o] = '\0';
	return out;
}

void rd_font(cairo_t *cr, double size, int bold)
{
	cairo_font_options_t *fo = cairo_font_options_create();

	/* unhinted metrics: the layout measured on a scratch image matches the SVG */
	cairo_font_options_set_hint_metrics(fo, CAIRO_HINT_METRICS_OFF);
	cairo_font_options_set_hint_style(fo, CAIRO_HINT_STYLE_NONE);
	cairo_font_options_set_antialias(fo, CAIRO_ANTIALIAS_GRAY);
	cairo_set_font_options(cr, fo);
	cairo_font_options_destroy(fo);
	cairo_select_font_face(cr, RD_FONT, CAIRO_FONT_SLANT_NORMAL,
			       bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
	cairo_set_font_size(cr, size);
}

double rd_text_width(cairo_t *cr, const char *s)
{
	cairo_text_extents_t e;

	cairo_text_extents(cr, s, &e);
	return e.x_advance;
}

void rd_text(cairo_t *cr, double x, double y, int align, const char *s)
{
	double w = align ? rd_text_width(cr, s) : 0;

	cairo_move_to(cr, align == 1 ? x - w / 2 : align == 2 ? x - w : x, y);
	cairo_show_text(cr, s);
}

void rd_text_box(cairo_t *cr, const struct rd_rect *box, double pt, int bold, const char *s)
{
	rd_font(cr, pt, bold);
	rd_text(cr, box->x, box->y + pt * RD_TEXT_BASE, 0, s);
}

char *rd_text_fit(cairo_t *cr, const char *s, double maxw, char *out, size_t outlen)
{
	static const char ell[] = "\xe2\x80\xa6";	/* … */
	size_t n;

	rd_utf8_clean(s, (size_t)-1, out, outlen);
	if (rd_text_width(cr, out) <= maxw)
		return out;
	n = strlen(out);
	while (n > 0) {
		/* step back one whole character */
		do
			n--;
		while (n > 0 && ((unsigned char)out[n] & 0xc0) == 0x80);
		if (n + sizeof(ell) > outlen)
			continue;
		memcpy(out + n, ell, sizeof(ell));
		if (rd_text_width(cr, out) <= maxw)
			return out;
	}
	if (outlen >= sizeof(ell) && rd_text_width(cr, ell) <= maxw)
		memcpy(out, ell, sizeof(ell));
	else
		out[0] = '\0';
	return out;
}

char *rd_fmt_dur_chart(double ns, char *buf, size_t len)
{
	static const struct {
		double div;
		const char *u;
	} units[] = { { 1e9, "s" }, { 1e6, "ms" }, { 1e3, "\xc2\xb5s" }, { 1, "ns" } };
	double a = fabs(ns);
	size_t i;

	for (i = 0; i < LAT_ARRAY_SIZE(units) - 1; i++)
		if (a >= units[i].div)
			break;
	snprintf(buf, len, "%.3g %s", ns / units[i].div, units[i].u);
	return buf;
}

static const struct rd_rgb palette[RD_PALETTE_N] = {
	{ 0.122, 0.467, 0.706 },	/* blue */
	{ 1.000, 0.498, 0.055 },	/* orange */
	{ 0.173, 0.627, 0.173 },	/* green */
	{ 0.580, 0.404, 0.741 },	/* purple */
	{ 0.549, 0.337, 0.294 },	/* brown */
	{ 0.090, 0.745, 0.812 },	/* cyan */
	{ 0.890, 0.467, 0.761 },	/* pink */
	{ 0.737, 0.741, 0.133 },	/* olive */
	{ 0.184, 0.294, 0.486 },	/* navy */
	{ 0.498, 0.498, 0.498 },	/* grey */
	{ 0.600, 0.820, 0.400 },	/* light green */
	{ 0.980, 0.750, 0.300 },	/* amber */
};

const struct rd_rgb rd_alert_rgb = { 0.839, 0.153, 0.157 };

struct rd_rgb rd_palette(size_t i)
{
	return palette[i % RD_PALETTE_N];
}

struct rd_rgb rd_muted(uint32_t key)
{
	/* hue from a multiplicative hash, low saturation so palette colours stand out */
	double h = (double)((key * 2654435761u) >> 8) / (double)(1u << 24) * 6.0;
	double s = 0.30, l = 0.72, c = (1 - fabs(2 * l - 1)) * s;
	double x = c * (1 - fabs(fmod(h, 2.0) - 1)), m = l - c / 2;
	double r = 0, g = 0, b = 0;

	switch ((int)h % 6) {
	case 0: r = c; g = x; break;
	case 1: r = x; g = c; break;
	case 2: g = c; b = x; break;
	case 3: g = x; b = c; break;
	case 4: r = x; b = c; break;
	default: r = c; b = x; break;
	}
	return (struct rd_rgb){ r + m, g + m, b + m };
}
