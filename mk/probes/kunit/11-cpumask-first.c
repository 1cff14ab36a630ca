// probe: KUNIT_API_CPUMASK_FIRST
// mode: compile
// yes: cpumask_first=cpumask.h
// no: cpumask_first=kunit-fallback
#include <linux/cpumask.h>
unsigned int kunit_probe(void)
{
	return cpumask_first(cpu_online_mask);
}
