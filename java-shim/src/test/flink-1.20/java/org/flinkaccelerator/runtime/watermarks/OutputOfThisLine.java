package org.flinkaccelerator.runtime.watermarks;

import org.apache.flink.streaming.api.operators.Output;

/** A test output; Flink 1.20's has nothing beyond what the tests implement. */
abstract class OutputOfThisLine<T> implements Output<T> {}
