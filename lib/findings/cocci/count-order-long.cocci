// The level-0 carry bit comes from the batch, an unsigned long:
// get_count_order() takes an unsigned int and truncates a batch of 2^32
// or more; get_count_order_long() takes the whole value.
@@
identifier batch =~ "batch";
@@
- get_count_order(batch)
+ get_count_order_long(batch)
