// precise_compare(a, b) is documented as "-1 if counter @a less than
// counter @b, 1 if greater"; it tests a > b for both answers, so it
// answers -1 when a is greater and never 1. The -1 test becomes a < b.
@@
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
