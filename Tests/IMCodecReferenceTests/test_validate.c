/*
 * The validator: findings, paths and the profile tables generated from
 * Schemas/ (a limit passes at N and fails at N + 1, N read from the table).
 */
#include "constraints.h"
#include "test_util.h"

#include <stdio.h>
#include <string.h>

/* Validates and checks the findings' codes and paths ("code@path" joined by spaces). */
static void expect(const char *name, imcodec_ref_kind kind, const bytes *payload, const char *profile,
                   const char *expected) {
    imcodec_ref_findings findings;
    imcodec_ref_error err;
    imcodec_ref_status st = imcodec_ref_validate_payload(kind, payload->data, payload->len, NULL,
                                                         imcodec_ref_validation_profile(profile), &findings, &err);
    if (!check(st == IMCODEC_REF_OK, "%s: status %s", name, imcodec_ref_status_name(st))) return;
    char got[1024] = "";
    for (size_t i = 0; i < findings.count; i++) {
        size_t used = strlen(got);
        snprintf(got + used, sizeof got - used, "%s%s@%s", i > 0 ? " " : "", findings.items[i].code,
                 findings.items[i].path);
    }
    check(strcmp(got, expected) == 0, "%s: findings \"%s\", expected \"%s\"", name, got, expected);
    imcodec_ref_findings_free(&findings);
}

/* A group message holding one group tips elem whose group name is `name_bytes` long (group tips belong to
 * group messages, M23). */
static bytes tips_message(size_t name_bytes) {
    char name[256];
    memset(name, 'a', name_bytes);
    name[name_bytes] = '\0';
    bytes tips = {0}, elem = {0}, message = {0};
    b_tag(&tips, 2, 0);
    b_varint(&tips, 1); /* invite */
    b_string(&tips, 5, name);
    b_message(&elem, 10, &tips);
    b_string(&message, 4, "@TGS#1");
    b_message(&message, 18, &elem);
    b_free(&tips);
    b_free(&elem);
    return message;
}

void test_validate(void) {
    check(imcodec_ref_validation_profile("sdk-guide") == &imcodec_ref_validation_sdk_guide, "sdk-guide profile by name");
    check(imcodec_ref_validation_profile("seed") == &imcodec_ref_validation_sdk_guide, "seed, the earlier name, by name");
    check(imcodec_ref_validation_profile("current") == &imcodec_ref_validation_current, "current profile by name");
    check(imcodec_ref_validation_profile("newest") == NULL, "unknown profile");

    bytes empty = {0};
    b_string(&empty, 3, "bob");
    expect("message without elems (M17)", IMCODEC_REF_KIND_MESSAGE, &empty, "sdk-guide", "rule.message.elems-missing@elems");
    expect("message without elems, current", IMCODEC_REF_KIND_MESSAGE, &empty, "current",
           "rule.message.elems-missing@elems");
    b_free(&empty);

    bytes image = {0}, elem = {0}, message = {0};
    b_tag(&image, 2, 0);
    b_varint(&image, 1);
    b_message(&elem, 3, &image);
    b_string(&message, 3, "bob");
    b_message(&message, 18, &elem);
    expect("image without levels (M18)", IMCODEC_REF_KIND_MESSAGE, &message, "sdk-guide",
           "rule.image.levels-missing@elems[0].image.levels");
    b_free(&image);
    b_free(&elem);
    b_free(&message);

    size_t limit = (size_t)imcodec_ref_validation_sdk_guide.max_group_name_bytes;
    bytes at = tips_message(limit), past = tips_message(limit + 1);
    expect("group name at the sdk-guide limit", IMCODEC_REF_KIND_MESSAGE, &at, "sdk-guide", "");
    expect("group name past the sdk-guide limit", IMCODEC_REF_KIND_MESSAGE, &past, "sdk-guide",
           "limit.group.name-bytes@elems[0].groupTips.groupName");
    b_free(&at);
    b_free(&past);

    bytes batch = {0}, first = {0};
    b_string(&first, 3, "bob");
    b_message(&batch, 1, &first);
    expect("batch message paths", IMCODEC_REF_KIND_BATCH, &batch, "sdk-guide", "rule.message.elems-missing@messages[0].elems");
    b_free(&first);
    b_free(&batch);

    bytes event = {0};
    expect("event of no kind", IMCODEC_REF_KIND_EVENT, &event, "sdk-guide", "enum.unknown-kind@");

    imcodec_ref_findings findings;
    imcodec_ref_error err;
    bytes broken = b_hex("1a");
    check(imcodec_ref_validate_payload(IMCODEC_REF_KIND_MESSAGE, broken.data, broken.len, NULL,
                                       imcodec_ref_validation_profile("sdk-guide"), &findings, &err) == IMCODEC_REF_ERROR,
          "a payload that does not decode is an error");
    b_free(&broken);
}
