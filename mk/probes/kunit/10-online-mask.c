// probe: KUNIT_API_CPU_ONLINE_MASK
// mode: compile
// yes: online_mask=cpumask.h
// no: online_mask=kunit-fallback
#include <linux/cpumask.h>
const void *kunit_probe(void)
{
	return cpu_online_mask;
}
