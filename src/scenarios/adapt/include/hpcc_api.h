/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ./stress through the adapter (make adapt-stress, mk/adapt.mk): the
 * engine's hpcc_api.h names the shape the adapter probed
 * (mk/probes/adapt/) instead of the long API's probes (mk/kernel.mk).
 */
#ifndef _HPCC_API_H
#define _HPCC_API_H

#include "hpcc_adapt_api.h"

#define HPCC_API_DESC	"adapter " HPCC_ADAPT_API_DESC

#endif /* _HPCC_API_H */
