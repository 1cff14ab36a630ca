// SPDX-License-Identifier: GPL-2.0
/* Placeholder until the engine lands: prints the version. */
#include <stdio.h>

int main(void)
{
	printf("stress: hpcc-stress (engine not built yet)\n");
	return 0;
}
