package org.flinkaccelerator.planner.substrait;

import java.util.List;
import org.apache.calcite.rex.RexNode;

/** One Calc's work: an optional condition and a projection, both over the Calc's input row. */
public record CalcProgram(String description, List<RexNode> projection, RexNode condition) {}
