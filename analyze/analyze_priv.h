/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Shared by the analyses; their entry points are in latscope/analyze.h. */
#ifndef LATSCOPE_ANALYZE_PRIV_H
#define LATSCOPE_ANALYZE_PRIV_H

#include "latscope/analyze.h"

#endif
