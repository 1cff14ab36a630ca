// Subject: the compare_value functions answer the sign of counter - v
// Both compare_value functions are documented as "-1 if the value [is]
// less than counter, 1 if greater", the sign of v - counter; they
// answer the sign of counter - v. Swap every -1 and 1 they return.
@@
identifier fn =~ "^percpu_counter_tree_(precise|approximate)_compare_value$";
expression C;
@@
fn(...)
{
<...
(
- return -1;
+ return 1;
|
- return 1;
+ return -1;
|
- return C ? -1 : 1;
+ return C ? 1 : -1;
|
- return C ? 1 : -1;
+ return C ? -1 : 1;
)
...>
}
