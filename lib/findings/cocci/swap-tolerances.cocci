// Subject: the compare functions pass compare_delta() their tolerances swapped
// compare_delta(delta, accuracy_neg, accuracy_pos) answers 0 for delta in
// [-accuracy_neg, +accuracy_pos]. Every caller's delta is "v - approx"
// (or a - b): the precise sum lies in [approx - over, approx + under],
// so the negative side takes over and the positive side under. The
// callers pass them the other way round: swap them back, at every call.
@@
expression delta, neg, pos;
@@
  compare_delta(delta,
-	neg, pos
+	pos, neg
  )
