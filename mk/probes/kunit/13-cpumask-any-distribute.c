// probe: KUNIT_API_CPUMASK_ANY_DISTRIBUTE
// mode: compile
// yes: cpumask_any_distribute=cpumask.h
// no: cpumask_any_distribute=kunit-fallback
#include <linux/cpumask.h>
unsigned int kunit_probe(void)
{
	return cpumask_any_distribute(cpu_online_mask);
}
