// init() allocates nr_cpus - 1 items but sizes them as
// nr_cpus - 1 * sizeof(item): the product binds first. Below as many
// CPUs as an item has bytes the size wraps and init() fails; above,
// the array is too short. The count is parenthesised.
@@
expression n, s, g;
@@
percpu_counter_tree_init(...)
{
<...
  kzalloc(
- n - 1 * s
+ (n - 1) * s
  , g)
...>
}
