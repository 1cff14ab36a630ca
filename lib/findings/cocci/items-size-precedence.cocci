// init() allocates nr_cpus - 1 items but sizes them as
// nr_cpus - 1 * sizeof(item): the product binds first. Below as many
// CPUs as an item has bytes the size wraps and init() fails; above,
// the array is too short. The count is parenthesised: only the tokens
// of n - 1 are replaced, so that spatch keeps the line breaks of the
// call (a whole size rewritten is printed on one line, past 100 columns).
@@
expression n, s, g;
@@
percpu_counter_tree_init(...)
{
<...
  kzalloc(
- n - 1
+ (n - 1)
  * s
  , g)
...>
}

// With the size right, one possible CPU gets no item at all, while
// approx_sum() reads items[nr_cpus - 2] and the slow path adds into
// the first item: the tree keeps at least one level.
@@
expression c;
symbol nr_cpu_ids;
@@
percpu_counter_tree_init(...)
{
<...
- c->nr_levels = get_count_order(nr_cpu_ids);
+ c->nr_levels = get_count_order(nr_cpu_ids) ?: 1;
...>
}
