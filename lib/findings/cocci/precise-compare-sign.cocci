// precise_compare(a, b) is documented as "-1 if counter @a less than
// counter @b, 1 if greater"; it tests a > b for both answers, so it
// answers -1 when a is greater and never 1. The -1 test becomes a < b.
// Without the gtr_lss isomorphism (a > b is b < a), which would match
// the header's right !CONFIG_SMP version, "count_a < count_b", and
// rewrite it "count_b < count_a": the -1 answer for a greater.
@ disable gtr_lss @
expression a, b;
@@
percpu_counter_tree_precise_compare(...)
{
<...
  if (
-	a > b
+	a < b
  )
  return -1;
...>
}
