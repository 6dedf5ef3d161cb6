package org.flinkaccelerator.planner.substrait;

import io.substrait.proto.Plan;
import io.substrait.proto.SimpleExtensionDeclaration;
import io.substrait.proto.SimpleExtensionURN;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The extension declarations of one plan: each (URN, function name) used gets an anchor, in
 * order of first use, so the same query always yields the same plan text.
 */
final class FunctionAnchors {
    private final Map<String, Integer> urns = new LinkedHashMap<>();
    private final Map<String, Integer> functions = new LinkedHashMap<>();
    private final Map<String, Integer> functionUrn = new LinkedHashMap<>();

    int anchor(String urn, String name) {
        int urnAnchor = urns.computeIfAbsent(urn, u -> urns.size() + 1);
        String key = urn + "#" + name;
        Integer existing = functions.get(key);
        if (existing != null) {
            return existing;
        }
        int anchor = functions.size() + 1;
        functions.put(key, anchor);
        functionUrn.put(key, urnAnchor);
        return anchor;
    }

    void declareIn(Plan.Builder plan) {
        urns.forEach((urn, anchor) -> plan.addExtensionUrns(
                SimpleExtensionURN.newBuilder().setExtensionUrnAnchor(anchor).setUrn(urn)));
        functions.forEach((key, anchor) -> plan.addExtensions(SimpleExtensionDeclaration.newBuilder()
                .setExtensionFunction(SimpleExtensionDeclaration.ExtensionFunction.newBuilder()
                        .setExtensionUrnReference(functionUrn.get(key))
                        .setFunctionAnchor(anchor)
                        .setName(key.substring(key.indexOf('#') + 1)))));
    }
}
