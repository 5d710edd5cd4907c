package imcodec.javatestee;

import com.google.protobuf.Descriptors.FieldDescriptor;
import imcodec.constraints.v1.Constraints.Check;
import imcodec.constraints.v1.Constraints.Limit;
import imcodec.constraints.v1.Constraints.ProfileValue;
import imcodec.v1.Model;

/**
 * The three named predicates of docs/spec/validation.md ("Named predicates"): the rules the declarations name
 * rather than spell out, written once per language. They are the only place of the validator that knows fields
 * of the model; their limit values and finding codes still come from the declarations that name them.
 */
final class NamedPredicates {
    private NamedPredicates() {}

    /** The @ user ID that mentions everyone (docs/spec/validation.md, "Named predicates", {@code at-type}). */
    static final String AT_ALL_USER_ID = "__kImSDK_MesssageAtALL__";

    /**
     * Applies a limit that names a predicate ({@code Limit.predicate}) with its value in the profile.
     *
     * @param field the declaring field, null for a message-level limit
     * @param path where a finding is reported: the field's path, or the message's for a message-level limit
     */
    static void applyLimit(Validator run, Node node, FieldDescriptor field, String path, Limit limit,
            ProfileValue bound) {
        switch (limit.getPredicate()) {
            case "image.scaled-short-side" -> scaledShortSide(run, node, path, limit, bound.getNumber());
            case "add-source" -> addSource(run, (String) node.message().getField(field), path, limit,
                    bound.getText());
            default -> throw new IllegalStateException("the limit " + limit.getName() + " names the unknown predicate "
                    + limit.getPredicate());
        }
    }

    /** Applies a message check of the form {@code FORM_PREDICATE}, reporting at {@code path}. */
    static void check(Validator run, Node node, String path, Check check) {
        if (!check.getPredicate().equals("at-type")) {
            throw new IllegalStateException("a check names the unknown predicate " + check.getPredicate());
        }
        atType(run, (Model.Message) node.message(), path, check.getCode());
    }

    /**
     * {@code image.scaled-short-side}: a scaled image level's shorter side is {@code min(v, original's shorter
     * side)} when the enclosing image has an original of known size (the first ORIGINAL level), otherwise at most
     * {@code v}. A level whose width or height is 0 is not checked.
     */
    private static void scaledShortSide(Validator run, Node node, String path, Limit limit, long bound) {
        long side = shortSide((Model.ImageLevel) node.message());
        if (side < 0) {
            return;
        }
        Node image = node.enclosing(Model.ImageElem.getDescriptor().getName());
        long originalSide = -1;
        if (image != null) {
            for (Model.ImageLevel level : ((Model.ImageElem) image.message()).getLevelsList()) {
                if (level.getType() == Model.ImageLevelType.IMAGE_LEVEL_TYPE_ORIGINAL) {
                    originalSide = shortSide(level);
                    break;
                }
            }
        }
        if (originalSide >= 0) {
            long expected = Math.min(bound, originalSide);
            if (side != expected) {
                run.report(limit.getCode(), path, expected, side);
            }
        } else if (side > bound) {
            run.report(limit.getCode(), path, bound, side);
        }
    }

    /** A level's shorter side in pixels, or -1 when its width or height is 0 (not reported). */
    private static long shortSide(Model.ImageLevel level) {
        long width = Integer.toUnsignedLong(level.getWidth());
        long height = Integer.toUnsignedLong(level.getHeight());
        return width > 0 && height > 0 ? Math.min(width, height) : -1;
    }

    /**
     * {@code add-source}: an empty value passes; otherwise it starts with the prefix {@code p} and what follows is
     * one or more of {@code A}–{@code Z}, {@code a}–{@code z}.
     */
    private static void addSource(Validator run, String value, String path, Limit limit, String prefix) {
        if (value.isEmpty()) {
            return;
        }
        boolean follows = value.startsWith(prefix) && value.length() > prefix.length();
        for (int i = prefix.length(); follows && i < value.length(); i++) {
            char c = value.charAt(i);
            follows = c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z';
        }
        if (!follows) {
            run.report(limit.getCode(), path, null, null);
        }
    }

    /**
     * {@code at-type}: AT_ME needs a mentioned user and not everyone, AT_ALL everyone, AT_ALL_AT_ME both; other
     * types need nothing.
     */
    private static void atType(Validator run, Model.Message message, String path, String code) {
        boolean mentionsAll = message.getAtUserListList().contains(AT_ALL_USER_ID);
        boolean mentionsUser = message.getAtUserListList().stream().anyMatch(id -> !id.equals(AT_ALL_USER_ID));
        boolean follows = switch (message.getAtType()) {
            case GROUP_AT_TYPE_AT_ME -> mentionsUser && !mentionsAll;
            case GROUP_AT_TYPE_AT_ALL -> mentionsAll;
            case GROUP_AT_TYPE_AT_ALL_AT_ME -> mentionsAll && mentionsUser;
            default -> true;
        };
        if (!follows) {
            run.report(code, path, null, null);
        }
    }
}
