package org.flinkaccelerator.planner.stage;

import java.util.List;
import java.util.Map;

/**
 * A table format checked for one row: the options its spec carries to the sidecar (the table's
 * own, plus whatever the sidecar cannot derive from them, such as a protobuf message's schema) and
 * why it is not reproduced exactly (empty: it is).
 */
record FormatCheck(Map<String, String> options, List<String> problems) {}
