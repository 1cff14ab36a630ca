// probe: KUNIT_API_CPUMASK_TEST_CPU
// mode: compile
// yes: cpumask_test_cpu=cpumask.h
// no: cpumask_test_cpu=kunit-fallback
#include <linux/cpumask.h>
int kunit_probe(int cpu)
{
	return cpumask_test_cpu(cpu, cpu_online_mask);
}
