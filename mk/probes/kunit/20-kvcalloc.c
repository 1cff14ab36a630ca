// probe: KUNIT_API_KVMALLOC
// mode: compile
// yes: kvcalloc=slab.h
// no: kvcalloc=kunit-fallback
#include <linux/slab.h>
void kunit_probe(void)
{
	kvfree(kvcalloc(2, 8, GFP_KERNEL));
}
