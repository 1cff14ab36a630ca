// SPDX-License-Identifier: GPL-2.0
/*
 * lib/hpcc_adapt's range plumbing for the int-items API shape, on a fixture
 * header (tests/lib/adapt_fixture): no tree is built (tests/seam builds
 * the adapter on fixture trees in the long tier).
 */
#define ADAPT_FIXTURE_INT	1
#include "adapt_fixture/adapt_range_cases.h"

KT_MAIN("hpcc_adapt_range_int", cases)
