/* SPDX-License-Identifier: GPL-2.0 */
/* The shape mk/probes/adapt/ would find in the fixture's header. */
#ifndef _HPCC_ADAPT_API_H
#define _HPCC_ADAPT_API_H
#define HPCC_ADAPT_HEADER	1
#define HPCC_ADAPT_LONG		(!ADAPT_FIXTURE_INT)
#define HPCC_ADAPT_INT_ITEMS	ADAPT_FIXTURE_INT
#define HPCC_ADAPT_RFC		0
#define HPCC_ADAPT_RFC1		0
#define HPCC_ADAPT_SUBSYS	1
#endif
