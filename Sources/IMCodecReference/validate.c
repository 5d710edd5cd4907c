/*
 * The validator: the documented limits and rules of docs/spec/limits.md over a
 * decoded payload, with the finding codes of docs/spec/error-and-finding-codes.md
 * and the paths and order of docs/spec/validation.md. Every number comes from the generated profile tables
 * (Generated/constraints.c, declared in Schemas/); this file holds the walk
 * and the logic of each rule.
 */
#include "constraints.h"
#include "internal.h"
#include "prescan.h"

#include "imcodec/v1/event.pb-c.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------------ */
/* A run: the findings so far and the path of the value being checked.       */

typedef struct run {
    const imcodec_ref_validation_limits *limits;
    imcodec_ref_findings *out;
    char *path;
    size_t length;
    size_t capacity;
    int out_of_memory;
} run;

static int reserve(run *r, size_t extra) {
    if (r->length + extra + 1 <= r->capacity) return 1;
    size_t capacity = r->capacity == 0 ? 256 : r->capacity;
    while (r->length + extra + 1 > capacity)
        capacity *= 2;
    char *path = realloc(r->path, capacity);
    if (path == NULL) {
        r->out_of_memory = 1;
        return 0;
    }
    r->path = path;
    r->capacity = capacity;
    return 1;
}

/* Enters a field; returns the path length to come back to with leave(). */
static size_t enter(run *r, const char *field) {
    size_t mark = r->length;
    size_t n = strlen(field);
    if (!reserve(r, n + 1)) return mark;
    if (r->length > 0) r->path[r->length++] = '.';
    memcpy(r->path + r->length, field, n);
    r->length += n;
    r->path[r->length] = '\0';
    return mark;
}

/* Enters entry `index` of the repeated field just entered. */
static size_t enter_index(run *r, size_t index) {
    size_t mark = r->length;
    char digits[sizeof "[18446744073709551615]"];
    int n = snprintf(digits, sizeof digits, "[%zu]", index);
    if (n < 0 || !reserve(r, (size_t)n)) return mark;
    memcpy(r->path + r->length, digits, (size_t)n);
    r->length += (size_t)n;
    r->path[r->length] = '\0';
    return mark;
}

static void leave(run *r, size_t mark) {
    r->length = mark;
    if (r->path != NULL) r->path[mark] = '\0';
}

static int is_warning(const char *code) {
    return strncmp(code, "enum.", 5) == 0 || strcmp(code, "code.undocumented") == 0 ||
           strcmp(code, "rule.image.large-size") == 0 ||
           strcmp(code, "rule.image.thumbnail-size") == 0;
}

/* Records a finding at the current path, or at `field` below it. */
static void report(run *r, const char *code, const char *field, int64_t limit, int64_t actual) {
    if (r->out_of_memory) return;
    size_t mark = field != NULL ? enter(r, field) : r->length;
    imcodec_ref_findings *out = r->out;
    if (out->count == out->capacity) {
        size_t capacity = out->capacity == 0 ? 4 : out->capacity * 2;
        imcodec_ref_finding *items = realloc(out->items, capacity * sizeof *items);
        if (items == NULL) {
            r->out_of_memory = 1;
            leave(r, mark);
            return;
        }
        out->items = items;
        out->capacity = capacity;
    }
    char *path = malloc(r->length + 1);
    if (path == NULL) {
        r->out_of_memory = 1;
        leave(r, mark);
        return;
    }
    if (r->length > 0) memcpy(path, r->path, r->length);
    path[r->length] = '\0';
    imcodec_ref_finding *finding = &out->items[out->count++];
    finding->code = code;
    finding->path = path;
    finding->warning = is_warning(code);
    finding->limit = limit;
    finding->actual = actual;
    leave(r, mark);
}

/* Reports `code` when `count` is above the limit; `has` 0 is a rule the profile lacks. */
static void check_count(run *r, int has, int64_t limit, int64_t count, const char *code, const char *field) {
    if (has && count > limit) report(r, code, field, limit, count);
}

/* ------------------------------------------------------------------------ */
/* Fields shared by many messages                                            */

static int in_strings(const char *const *set, size_t n, const char *value) {
    for (size_t i = 0; i < n; i++)
        if (strcmp(set[i], value) == 0) return 1;
    return 0;
}

static int is_named(const ProtobufCEnumDescriptor *desc, int value) {
    return protobuf_c_enum_descriptor_get_value(desc, value) != NULL;
}

/* F8: a user ID's length; empty IDs are the rule of the field that holds them. */
static void check_user_id(run *r, const char *id, const char *field) {
    check_count(r, r->limits->has_max_user_id_bytes, r->limits->max_user_id_bytes, (int64_t)strlen(id),
                "limit.user.id-bytes", field);
}

/* F8 for every entry of a list of user IDs. */
static void check_user_ids(run *r, char *const *ids, size_t n, const char *field) {
    if (!r->limits->has_max_user_id_bytes) return;
    size_t mark = enter(r, field);
    for (size_t i = 0; i < n; i++) {
        if ((int64_t)strlen(ids[i]) <= r->limits->max_user_id_bytes) continue;
        size_t entry = enter_index(r, i);
        check_user_id(r, ids[i], NULL);
        leave(r, entry);
    }
    leave(r, mark);
}

/* G14: a group ID's length and characters (printable ASCII). */
static void check_group_id(run *r, const char *id, const char *field) {
    check_count(r, r->limits->has_max_group_id_bytes, r->limits->max_group_id_bytes, (int64_t)strlen(id),
                "limit.group.id-bytes", field);
    if (!r->limits->requires_printable_ascii_group_id) return;
    for (const unsigned char *p = (const unsigned char *)id; *p != '\0'; p++) {
        if (*p < ' ' || *p > '~') {
            report(r, "format.group.id-characters", field, 0, *p);
            return;
        }
    }
}

/* F7: a profile string's or bytes field's length. */
static void check_profile_bytes(run *r, size_t count, const char *field) {
    check_count(r, r->limits->has_max_profile_string_bytes, r->limits->max_profile_string_bytes, (int64_t)count,
                "limit.profile.string-bytes", field);
}

/* G13: an operator platform from the documented list; empty is unset. */
static void check_platform(run *r, const char *platform, const char *field) {
    if (platform[0] == '\0' || !r->limits->has_operator_platforms) return;
    if (!in_strings(r->limits->operator_platforms, r->limits->n_operator_platforms, platform))
        report(r, "enum.unknown-platform", field, 0, 0);
}

/* An enum value outside the schema's names. */
static void check_enum(run *r, const ProtobufCEnumDescriptor *desc, int value, const char *field) {
    if (!is_named(desc, value)) report(r, "enum.unknown-value", field, 0, value);
}

/* A kind field: 0 names no kind, other unnamed values are unknown. */
static void check_discriminator(run *r, const ProtobufCEnumDescriptor *desc, int value, const char *field) {
    if (value == 0)
        report(r, "enum.unspecified", field, 0, 0);
    else
        check_enum(r, desc, value, field);
}

/* UTF-16 code units of a valid UTF-8 string. */
static int64_t utf16_length(const char *text) {
    int64_t units = 0;
    for (const unsigned char *p = (const unsigned char *)text; *p != '\0'; p++) {
        if ((*p & 0xC0) == 0x80) continue;
        units += *p > 0xEF ? 2 : 1; /* a four-byte sequence is a surrogate pair */
    }
    return units;
}

/* ------------------------------------------------------------------------ */
/* Profiles and groups                                                       */

/* F7, F8, F10: a user profile at the current path. */
static void visit_profile(run *r, const Imcodec__V1__UserProfile *profile) {
    check_user_id(r, profile->identifier, "identifier");
    check_profile_bytes(r, strlen(profile->nickname), "nickname");
    check_enum(r, &imcodec__v1__friend_allow_type__descriptor, (int)profile->allow_type, "allowType");
    check_profile_bytes(r, strlen(profile->face_url), "faceUrl");
    check_profile_bytes(r, profile->self_signature.len, "selfSignature");
    check_enum(r, &imcodec__v1__gender__descriptor, (int)profile->gender, "gender");
    check_profile_bytes(r, profile->location.len, "location");
    const char *prefix = r->limits->profile_custom_key_prefix;
    if (!r->limits->has_max_profile_string_bytes && prefix == NULL) return;
    size_t mark = enter(r, "customInfo");
    for (size_t i = 0; i < profile->n_custom_info; i++) {
        const Imcodec__V1__CustomInfoEntry *entry = profile->custom_info[i];
        size_t at = enter_index(r, i);
        if (prefix != NULL && strncmp(entry->key, prefix, strlen(prefix)) != 0)
            report(r, "format.profile.custom-key", "key", 0, 0);
        if (entry->value_case == IMCODEC__V1__CUSTOM_INFO_ENTRY__VALUE_DATA)
            check_profile_bytes(r, entry->data.len, "data");
        leave(r, at);
    }
    leave(r, mark);
}

/* G7, G16, F8: a group member's info at the current path. */
static void visit_member(run *r, const Imcodec__V1__GroupMemberInfo *member) {
    const imcodec_ref_validation_limits *l = r->limits;
    check_user_id(r, member->member, "member");
    check_count(r, l->has_max_name_card_bytes, l->max_name_card_bytes, (int64_t)strlen(member->name_card),
                "limit.group.name-card-bytes", "nameCard");
    check_enum(r, &imcodec__v1__group_member_role__descriptor, (int)member->role, "role");
    check_count(r, l->has_max_member_custom_fields, l->max_member_custom_fields, (int64_t)member->n_custom_info,
                "limit.member.custom-fields", "customInfo");
    if (!l->has_max_member_custom_value_bytes) return;
    size_t mark = enter(r, "customInfo");
    for (size_t i = 0; i < member->n_custom_info; i++) {
        const Imcodec__V1__MemberCustomEntry *entry = member->custom_info[i];
        if ((int64_t)entry->data.len <= l->max_member_custom_value_bytes) continue;
        size_t at = enter_index(r, i);
        check_count(r, 1, l->max_member_custom_value_bytes, (int64_t)entry->data.len, "limit.member.custom-value-bytes",
                    "data");
        leave(r, at);
    }
    leave(r, mark);
}

/* G3-G6, G10, G15, F8: one group change; its value obeys the limit of the field it changes. */
static void visit_group_change(run *r, const Imcodec__V1__GroupChangeInfo *change) {
    const imcodec_ref_validation_limits *l = r->limits;
    int type = (int)change->type;
    check_discriminator(r, &imcodec__v1__group_info_change_type__descriptor, type, "type");
    int64_t value_bytes = (int64_t)strlen(change->value);
    switch (type) {
    case IMCODEC__V1__GROUP_INFO_CHANGE_TYPE__GROUP_INFO_CHANGE_TYPE_NAME:
        if (value_bytes == 0) report(r, "rule.group-change.value-missing", "value", 0, 0);
        check_count(r, l->has_max_group_name_bytes, l->max_group_name_bytes, value_bytes, "limit.group.name-bytes",
                    "value");
        break;
    case IMCODEC__V1__GROUP_INFO_CHANGE_TYPE__GROUP_INFO_CHANGE_TYPE_INTRODUCTION:
        check_count(r, l->has_max_group_introduction_bytes, l->max_group_introduction_bytes, value_bytes,
                    "limit.group.introduction-bytes", "value");
        break;
    case IMCODEC__V1__GROUP_INFO_CHANGE_TYPE__GROUP_INFO_CHANGE_TYPE_NOTIFICATION:
        check_count(r, l->has_max_group_notification_bytes, l->max_group_notification_bytes, value_bytes,
                    "limit.group.notification-bytes", "value");
        break;
    case IMCODEC__V1__GROUP_INFO_CHANGE_TYPE__GROUP_INFO_CHANGE_TYPE_FACE_URL:
        check_count(r, l->has_max_group_face_url_bytes, l->max_group_face_url_bytes, value_bytes,
                    "limit.group.face-url-bytes", "value");
        break;
    case IMCODEC__V1__GROUP_INFO_CHANGE_TYPE__GROUP_INFO_CHANGE_TYPE_OWNER:
        if (value_bytes == 0) report(r, "rule.group-change.value-missing", "value", 0, 0);
        check_user_id(r, change->value, "value");
        break;
    case IMCODEC__V1__GROUP_INFO_CHANGE_TYPE__GROUP_INFO_CHANGE_TYPE_CUSTOM:
        if (change->key[0] == '\0') report(r, "rule.group-change.key-missing", "key", 0, 0);
        check_count(r, l->has_max_group_custom_key_bytes, l->max_group_custom_key_bytes, (int64_t)strlen(change->key),
                    "limit.group.custom-key-bytes", "key");
        check_count(r, l->has_max_group_custom_value_bytes, l->max_group_custom_value_bytes, value_bytes,
                    "limit.group.custom-value-bytes", "value");
        break;
    default:
        break;
    }
    if (type != IMCODEC__V1__GROUP_INFO_CHANGE_TYPE__GROUP_INFO_CHANGE_TYPE_CUSTOM &&
        is_named(&imcodec__v1__group_info_change_type__descriptor, type) && change->key[0] != '\0')
        report(r, "rule.group-change.key-type", "key", 0, 0);
}

/* The member limit of a group type, if the profile has one. */
static int member_limit(const imcodec_ref_validation_limits *l, const char *group_type, int64_t *limit) {
    for (size_t i = 0; i < l->n_max_group_members; i++) {
        if (strcmp(l->max_group_members_keys[i], group_type) == 0) {
            *limit = l->max_group_members_values[i];
            return 1;
        }
    }
    return 0;
}

/* G18: which entries repeat the identifier of an earlier entry of the same
 * list. Sorting the indices by (identifier bytes, index) finds them in
 * O(n log n); returns NULL (and sets out_of_memory) when allocation fails,
 * or when n is 0. The caller frees the flags. */
typedef struct {
    const char *id;
    size_t index;
} keyed_index;

static int compare_keyed_index(const void *a, const void *b) {
    const keyed_index *x = a, *y = b;
    int order = strcmp(x->id, y->id);
    if (order != 0) return order;
    return x->index < y->index ? -1 : x->index > y->index;
}

static unsigned char *repeated_identifiers(run *r, const char *const *ids, size_t n) {
    if (n == 0) return NULL;
    keyed_index *sorted = malloc(n * sizeof *sorted);
    unsigned char *repeated = calloc(n, 1);
    if (sorted == NULL || repeated == NULL) {
        free(sorted);
        free(repeated);
        r->out_of_memory = 1;
        return NULL;
    }
    for (size_t i = 0; i < n; i++) sorted[i] = (keyed_index){ids[i], i};
    qsort(sorted, n, sizeof *sorted, compare_keyed_index);
    for (size_t i = 1; i < n; i++)
        if (strcmp(sorted[i].id, sorted[i - 1].id) == 0) repeated[sorted[i].index] = 1;
    free(sorted);
    return repeated;
}

/* G20: the group type whose operations are restricted (the live-streaming group). */
#define AV_CHAT_ROOM "AVChatRoom"
/* The group type users join only by invitation (G21). */
#define PRIVATE_GROUP "Private"

/* G2, G3, G8-G10, G13-G15, G18-G20: a group tips elem at the current path. */
static void visit_group_tips(run *r, const Imcodec__V1__GroupTipsElem *tips, const char *group_type) {
    const imcodec_ref_validation_limits *l = r->limits;
    int type = (int)tips->type;
    check_group_id(r, tips->group_id, "groupId");
    check_discriminator(r, &imcodec__v1__group_tips_type__descriptor, type, "type");
    check_user_id(r, tips->op_user, "opUser");
    check_user_ids(r, tips->user_list, tips->n_user_list, "userList");
    check_count(r, l->has_max_group_name_bytes, l->max_group_name_bytes, (int64_t)strlen(tips->group_name),
                "limit.group.name-bytes", "groupName");
    /* Which fields a type carries is only known for the documented types. */
    if (is_named(&imcodec__v1__group_tips_type__descriptor, type)) {
        if (tips->member_count != 0 && type != IMCODEC__V1__GROUP_TIPS_TYPE__GROUP_TIPS_TYPE_INVITE &&
            type != IMCODEC__V1__GROUP_TIPS_TYPE__GROUP_TIPS_TYPE_QUIT &&
            type != IMCODEC__V1__GROUP_TIPS_TYPE__GROUP_TIPS_TYPE_KICKED)
            report(r, "rule.group-tips.member-count-type", "memberCount", 0, 0);
        if (tips->n_group_change_list > 0 && type != IMCODEC__V1__GROUP_TIPS_TYPE__GROUP_TIPS_TYPE_INFO_CHANGE)
            report(r, "rule.group-tips.group-change-list-type", "groupChangeList", 0, 0);
        if (tips->n_member_change_list > 0 && type != IMCODEC__V1__GROUP_TIPS_TYPE__GROUP_TIPS_TYPE_MEMBER_INFO_CHANGE)
            report(r, "rule.group-tips.member-change-list-type", "memberChangeList", 0, 0);
        if (tips->n_user_list > 0 && !(type >= IMCODEC__V1__GROUP_TIPS_TYPE__GROUP_TIPS_TYPE_INVITE &&
                                       type <= IMCODEC__V1__GROUP_TIPS_TYPE__GROUP_TIPS_TYPE_CANCEL_ADMIN))
            report(r, "rule.group-tips.user-list-type", "userList", 0, 0);
    }
    int av_chat_room = strcmp(group_type, AV_CHAT_ROOM) == 0;
    if (av_chat_room && (type == IMCODEC__V1__GROUP_TIPS_TYPE__GROUP_TIPS_TYPE_SET_ADMIN ||
                         type == IMCODEC__V1__GROUP_TIPS_TYPE__GROUP_TIPS_TYPE_CANCEL_ADMIN))
        report(r, "rule.avchatroom.role-change", "type", 0, 0);
    int64_t members = 0;
    if (member_limit(l, group_type, &members))
        check_count(r, 1, members, tips->member_count, "limit.group.members", "memberCount");

    size_t mark = enter(r, "groupChangeList");
    int64_t custom_fields = 0;
    for (size_t i = 0; i < tips->n_group_change_list; i++) {
        size_t at = enter_index(r, i);
        visit_group_change(r, tips->group_change_list[i]);
        if (av_chat_room &&
            tips->group_change_list[i]->type == IMCODEC__V1__GROUP_INFO_CHANGE_TYPE__GROUP_INFO_CHANGE_TYPE_OWNER)
            report(r, "rule.avchatroom.owner-transfer", "type", 0, 0);
        leave(r, at);
        if (tips->group_change_list[i]->type == IMCODEC__V1__GROUP_INFO_CHANGE_TYPE__GROUP_INFO_CHANGE_TYPE_CUSTOM)
            custom_fields++;
    }
    check_count(r, l->has_max_group_custom_fields, l->max_group_custom_fields, custom_fields,
                "limit.group.custom-fields", NULL);
    leave(r, mark);

    mark = enter(r, "memberChangeList");
    for (size_t i = 0; i < tips->n_member_change_list; i++) {
        size_t at = enter_index(r, i);
        check_user_id(r, tips->member_change_list[i]->identifier, "identifier");
        leave(r, at);
    }
    leave(r, mark);

    if (tips->op_user_info != NULL) {
        mark = enter(r, "opUserInfo");
        visit_profile(r, tips->op_user_info);
        leave(r, mark);
    }
    if (tips->op_group_member_info != NULL) {
        mark = enter(r, "opGroupMemberInfo");
        visit_member(r, tips->op_group_member_info);
        leave(r, mark);
    }
    mark = enter(r, "changedUserInfo");
    const char **ids = NULL;
    size_t most = tips->n_changed_user_info > tips->n_changed_group_member_info ? tips->n_changed_user_info
                                                                                : tips->n_changed_group_member_info;
    if (most > 0 && (ids = malloc(most * sizeof *ids)) == NULL) r->out_of_memory = 1;
    unsigned char *repeated = NULL;
    if (ids != NULL) {
        for (size_t i = 0; i < tips->n_changed_user_info; i++) ids[i] = tips->changed_user_info[i]->identifier;
        repeated = repeated_identifiers(r, ids, tips->n_changed_user_info);
    }
    for (size_t i = 0; i < tips->n_changed_user_info; i++) {
        const Imcodec__V1__ChangedUserInfo *entry = tips->changed_user_info[i];
        size_t at = enter_index(r, i);
        check_user_id(r, entry->identifier, "identifier");
        if (repeated != NULL && repeated[i]) report(r, "rule.group-tips.duplicate-identifier", "identifier", 0, 0);
        if (entry->profile != NULL) {
            size_t inner = enter(r, "profile");
            visit_profile(r, entry->profile);
            leave(r, inner);
        }
        leave(r, at);
    }
    leave(r, mark);
    mark = enter(r, "changedGroupMemberInfo");
    free(repeated);
    repeated = NULL;
    if (ids != NULL) {
        for (size_t i = 0; i < tips->n_changed_group_member_info; i++)
            ids[i] = tips->changed_group_member_info[i]->identifier;
        repeated = repeated_identifiers(r, ids, tips->n_changed_group_member_info);
    }
    for (size_t i = 0; i < tips->n_changed_group_member_info; i++) {
        const Imcodec__V1__ChangedGroupMemberInfo *entry = tips->changed_group_member_info[i];
        size_t at = enter_index(r, i);
        check_user_id(r, entry->identifier, "identifier");
        if (repeated != NULL && repeated[i]) report(r, "rule.group-tips.duplicate-identifier", "identifier", 0, 0);
        if (entry->info != NULL) {
            size_t inner = enter(r, "info");
            visit_member(r, entry->info);
            if (entry->info->role == IMCODEC__V1__GROUP_MEMBER_ROLE__GROUP_MEMBER_ROLE_OWNER &&
                type == IMCODEC__V1__GROUP_TIPS_TYPE__GROUP_TIPS_TYPE_MEMBER_INFO_CHANGE)
                report(r, "rule.group-tips.owner-role", "role", 0, 0);
            leave(r, inner);
        }
        leave(r, at);
    }
    leave(r, mark);
    free(repeated);
    free(ids);
    check_platform(r, tips->platform, "platform");
}

/* G11-G14, G20, G21: a group system elem at the current path. */
static void visit_group_system(run *r, const Imcodec__V1__GroupSystemElem *system, const char *group_type) {
    check_discriminator(r, &imcodec__v1__group_system_type__descriptor, (int)system->type, "type");
    if (strcmp(group_type, AV_CHAT_ROOM) == 0) {
        switch (system->type) {
        case IMCODEC__V1__GROUP_SYSTEM_TYPE__GROUP_SYSTEM_TYPE_GRANT_ADMIN:
        case IMCODEC__V1__GROUP_SYSTEM_TYPE__GROUP_SYSTEM_TYPE_CANCEL_ADMIN:
            report(r, "rule.avchatroom.role-change", "type", 0, 0);
            break;
        case IMCODEC__V1__GROUP_SYSTEM_TYPE__GROUP_SYSTEM_TYPE_INVITED_TO_GROUP:
        case IMCODEC__V1__GROUP_SYSTEM_TYPE__GROUP_SYSTEM_TYPE_INVITE_TO_GROUP_REQUEST:
        case IMCODEC__V1__GROUP_SYSTEM_TYPE__GROUP_SYSTEM_TYPE_INVITE_TO_GROUP_ACCEPT:
        case IMCODEC__V1__GROUP_SYSTEM_TYPE__GROUP_SYSTEM_TYPE_INVITE_TO_GROUP_REFUSE:
            report(r, "rule.avchatroom.member-addition", "type", 0, 0);
            break;
        default:
            break;
        }
    }
    if (strcmp(group_type, PRIVATE_GROUP) == 0) {
        switch (system->type) {
        case IMCODEC__V1__GROUP_SYSTEM_TYPE__GROUP_SYSTEM_TYPE_ADD_GROUP_REQUEST:
        case IMCODEC__V1__GROUP_SYSTEM_TYPE__GROUP_SYSTEM_TYPE_ADD_GROUP_ACCEPT:
        case IMCODEC__V1__GROUP_SYSTEM_TYPE__GROUP_SYSTEM_TYPE_ADD_GROUP_REFUSE:
            report(r, "rule.private-group.join-request", "type", 0, 0);
            break;
        default:
            break;
        }
    }
    check_group_id(r, system->group_id, "groupId");
    check_user_id(r, system->user, "user");
    if (system->user_data.len > 0 && system->type != IMCODEC__V1__GROUP_SYSTEM_TYPE__GROUP_SYSTEM_TYPE_CUSTOM_INFO)
        report(r, "rule.group-system.user-data-type", "userData", 0, 0);
    if (system->op_user_info != NULL) {
        size_t mark = enter(r, "opUserInfo");
        visit_profile(r, system->op_user_info);
        leave(r, mark);
    }
    if (system->op_group_member_info != NULL) {
        size_t mark = enter(r, "opGroupMemberInfo");
        visit_member(r, system->op_group_member_info);
        leave(r, mark);
    }
    check_platform(r, system->platform, "platform");
}

/* F3: the declared prefix, then English letters, at most the declared number of them. */
static void check_add_source(run *r, const char *source, const char *field) {
    const char *prefix = r->limits->add_source_prefix;
    if (source[0] == '\0' || prefix == NULL) return;
    size_t n = strlen(prefix);
    if (strncmp(source, prefix, n) != 0) {
        report(r, "format.sns.source", field, 0, 0);
        return;
    }
    const char *name = source + n;
    int letters = name[0] != '\0';
    for (const char *p = name; *p != '\0'; p++)
        if (!((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z'))) letters = 0;
    if (!letters) report(r, "format.sns.source", field, 0, 0);
    check_count(r, r->limits->has_max_add_source_bytes, r->limits->max_add_source_bytes, (int64_t)strlen(name),
                "limit.sns.source-bytes", field);
}

/* F2-F5, F8: a relationship-chain system elem at the current path. */
static void visit_sns_system(run *r, const Imcodec__V1__SnsSystemElem *sns) {
    const imcodec_ref_validation_limits *l = r->limits;
    int64_t type = (int32_t)sns->type; /* an open enum: negative values stay negative */
    if (type == 0)
        report(r, "enum.unspecified", "type", 0, 0);
    else if (l->has_sns_system_types && l->n_sns_system_types == 2 &&
             (type < l->sns_system_types[0] || type > l->sns_system_types[1]))
        report(r, "enum.unknown-value", "type", 0, type);
    size_t mark = enter(r, "users");
    for (size_t i = 0; i < sns->n_users; i++) {
        const Imcodec__V1__SnsChangeInfo *user = sns->users[i];
        size_t at = enter_index(r, i);
        if (user->identifier[0] == '\0')
            report(r, "rule.sns.identifier-missing", "identifier", 0, 0);
        else
            check_user_id(r, user->identifier, "identifier");
        if (user->wording[0] != '\0' && sns->type != IMCODEC__V1__SNS_SYSTEM_TYPE__SNS_SYSTEM_TYPE_ADD_FRIEND_REQ)
            report(r, "rule.sns.wording-type", "wording", 0, 0);
        check_count(r, l->has_max_friend_wording_bytes, l->max_friend_wording_bytes, (int64_t)strlen(user->wording),
                    "limit.sns.wording-bytes", "wording");
        if (user->source[0] != '\0' && sns->type != IMCODEC__V1__SNS_SYSTEM_TYPE__SNS_SYSTEM_TYPE_ADD_FRIEND_REQ)
            report(r, "rule.sns.source-type", "source", 0, 0);
        check_add_source(r, user->source, "source");
        leave(r, at);
    }
    leave(r, mark);
}

/* F6-F8: a profile-change system elem at the current path. */
static void visit_profile_system(run *r, const Imcodec__V1__ProfileSystemElem *profile) {
    check_discriminator(r, &imcodec__v1__profile_system_type__descriptor, (int)profile->type, "type");
    check_user_id(r, profile->from_user, "fromUser");
    check_profile_bytes(r, strlen(profile->nickname), "nickname");
}

/* ------------------------------------------------------------------------ */
/* Elems                                                                     */

static int64_t short_side(const Imcodec__V1__ImageLevel *level) {
    if (level->width == 0 || level->height == 0) return 0;
    return level->width < level->height ? level->width : level->height;
}

/* M7: a scaled level's shorter side is the bound, or the original's when smaller. */
static void check_scaled(run *r, const Imcodec__V1__ImageLevel *level, int has, int64_t bound, int64_t original,
                         const char *code) {
    int64_t side = short_side(level);
    if (!has || side == 0) return;
    if (original != 0) {
        int64_t expected = bound < original ? bound : original;
        if (side != expected) report(r, code, NULL, expected, side);
    } else if (side > bound) {
        report(r, code, NULL, bound, side);
    }
}

/* M1, M6-M8, M18: an image elem at the current path. */
static void visit_image(run *r, const Imcodec__V1__ImageElem *image) {
    const imcodec_ref_validation_limits *l = r->limits;
    check_enum(r, &imcodec__v1__image_format__descriptor, (int)image->format, "format");
    if (image->n_levels == 0) report(r, "rule.image.levels-missing", "levels", 0, 0);
    int64_t original = 0;
    for (size_t i = 0; i < image->n_levels; i++) {
        if (image->levels[i]->type == IMCODEC__V1__IMAGE_LEVEL_TYPE__IMAGE_LEVEL_TYPE_ORIGINAL) {
            original = short_side(image->levels[i]);
            break;
        }
    }
    unsigned seen = 0;
    size_t mark = enter(r, "levels");
    for (size_t i = 0; i < image->n_levels; i++) {
        const Imcodec__V1__ImageLevel *level = image->levels[i];
        int type = (int)level->type;
        size_t at = enter_index(r, i);
        check_discriminator(r, &imcodec__v1__image_level_type__descriptor, type, "type");
        if (type >= IMCODEC__V1__IMAGE_LEVEL_TYPE__IMAGE_LEVEL_TYPE_ORIGINAL &&
            type <= IMCODEC__V1__IMAGE_LEVEL_TYPE__IMAGE_LEVEL_TYPE_THUMBNAIL) {
            unsigned bit = 1u << type;
            if (seen & bit) report(r, "rule.image.duplicate-level", "type", 0, 0);
            seen |= bit;
        }
        check_count(r, l->has_max_image_bytes, l->max_image_bytes, level->size, "limit.image.size", "size");
        if (type == IMCODEC__V1__IMAGE_LEVEL_TYPE__IMAGE_LEVEL_TYPE_LARGE)
            check_scaled(r, level, l->has_large_image_short_side, l->large_image_short_side, original,
                         "rule.image.large-size");
        else if (type == IMCODEC__V1__IMAGE_LEVEL_TYPE__IMAGE_LEVEL_TYPE_THUMBNAIL)
            check_scaled(r, level, l->has_thumbnail_short_side, l->thumbnail_short_side, original,
                         "rule.image.thumbnail-size");
        leave(r, at);
    }
    leave(r, mark);
}

/* M9: a coordinate within its declared range; NaN and infinities are out. */
static void check_coordinate(run *r, double value, double low, double high, const char *code, const char *field) {
    if (!(value >= low && value <= high)) report(r, code, field, (int64_t)high, 0);
}

/* Whether the messages of a merger in a message at `layer` are visited (M4). */
static int merger_is_visited(const run *r, const Imcodec__V1__MergerElem *merger, int64_t layer) {
    if (merger->n_messages == 0) return 0;
    return !(r->limits->has_max_merger_depth && layer + 1 > r->limits->max_merger_depth);
}

/* M2, M4, M5: a merger's own fields at the current path. */
static void visit_merger(run *r, const Imcodec__V1__MergerElem *merger, int64_t layer) {
    const imcodec_ref_validation_limits *l = r->limits;
    if (merger->title[0] == '\0') report(r, "rule.merger.title-missing", "title", 0, 0);
    if (merger->n_abstracts == 0) report(r, "rule.merger.abstracts-missing", "abstracts", 0, 0);
    check_count(r, l->has_max_merger_messages, l->max_merger_messages, (int64_t)merger->n_messages,
                "limit.merger.messages", "messages");
    check_count(r, l->has_max_merger_abstracts, l->max_merger_abstracts, (int64_t)merger->n_abstracts,
                "limit.merger.abstracts", "abstracts");
    if (l->has_max_merger_abstract_length) {
        size_t mark = enter(r, "abstracts");
        for (size_t i = 0; i < merger->n_abstracts; i++) {
            int64_t length = utf16_length(merger->abstracts[i]);
            if (length <= l->max_merger_abstract_length) continue;
            size_t at = enter_index(r, i);
            report(r, "limit.merger.abstract-length", NULL, l->max_merger_abstract_length, length);
            leave(r, at);
        }
        leave(r, mark);
    }
    if (l->requires_merger_compatible_text && merger->compatible_text[0] == '\0')
        report(r, "rule.merger.compatible-text-missing", "compatibleText", 0, 0);
    if (merger->msg_num != 0 && merger->n_messages > 0 && merger->msg_num != merger->n_messages)
        report(r, "rule.merger.msg-num", "msgNum", (int64_t)merger->n_messages, merger->msg_num);
    if (merger->json_msg_key[0] != '\0' && merger->n_messages > 0)
        report(r, "rule.merger.key-with-messages", "jsonMsgKey", 0, 0);
    if (merger->n_messages > 0 && !merger_is_visited(r, merger, layer))
        report(r, "limit.merger.depth", "messages", l->max_merger_depth, layer + 1);
}

/* One elem at the current path (`elems[i]`). */
static void visit_elem(run *r, const Imcodec__V1__Elem *elem, const Imcodec__V1__Message *message, int64_t layer) {
    const imcodec_ref_validation_limits *l = r->limits;
    size_t mark;
    switch (elem->kind_case) {
    case IMCODEC__V1__ELEM__KIND__NOT_SET:
        report(r, "enum.unknown-kind", NULL, 0, 0);
        break;
    case IMCODEC__V1__ELEM__KIND_TEXT:
    case IMCODEC__V1__ELEM__KIND_FACE:
        break;
    case IMCODEC__V1__ELEM__KIND_CUSTOM:
        mark = enter(r, "custom");
        check_count(r, l->has_max_custom_desc_ext_bytes, l->max_custom_desc_ext_bytes,
                    (int64_t)(strlen(elem->custom->desc) + strlen(elem->custom->ext)), "limit.custom.desc-ext-bytes",
                    NULL);
        leave(r, mark);
        break;
    case IMCODEC__V1__ELEM__KIND_IMAGE:
        mark = enter(r, "image");
        visit_image(r, elem->image);
        leave(r, mark);
        break;
    case IMCODEC__V1__ELEM__KIND_SOUND:
        mark = enter(r, "sound");
        check_count(r, l->has_max_sound_bytes, l->max_sound_bytes, elem->sound->size, "limit.sound.size", "size");
        leave(r, mark);
        break;
    case IMCODEC__V1__ELEM__KIND_VIDEO:
        mark = enter(r, "video");
        check_count(r, l->has_max_video_bytes, l->max_video_bytes, elem->video->video_size, "limit.video.size",
                    "videoSize");
        /* M22: a video elem carries its image too. */
        if (elem->video->video_uuid[0] != '\0' && elem->video->snapshot_uuid[0] == '\0' &&
            elem->video->snapshot_url[0] == '\0')
            report(r, "rule.video.snapshot-missing", NULL, 0, 0);
        leave(r, mark);
        break;
    case IMCODEC__V1__ELEM__KIND_FILE:
        mark = enter(r, "file");
        check_count(r, l->has_max_file_bytes, l->max_file_bytes, elem->file->size, "limit.file.size", "size");
        leave(r, mark);
        break;
    case IMCODEC__V1__ELEM__KIND_LOCATION:
        mark = enter(r, "location");
        check_coordinate(r, elem->location->latitude, IMCODEC_REF_RANGE_LATITUDE_MIN, IMCODEC_REF_RANGE_LATITUDE_MAX,
                         "range.location.latitude", "latitude");
        check_coordinate(r, elem->location->longitude, IMCODEC_REF_RANGE_LONGITUDE_MIN,
                         IMCODEC_REF_RANGE_LONGITUDE_MAX, "range.location.longitude", "longitude");
        leave(r, mark);
        break;
    case IMCODEC__V1__ELEM__KIND_MERGER:
        mark = enter(r, "merger");
        visit_merger(r, elem->merger, layer);
        leave(r, mark);
        break;
    case IMCODEC__V1__ELEM__KIND_GROUP_TIPS:
        mark = enter(r, "groupTips");
        visit_group_tips(r, elem->group_tips, message->group_type);
        leave(r, mark);
        break;
    case IMCODEC__V1__ELEM__KIND_GROUP_SYSTEM:
        mark = enter(r, "groupSystem");
        visit_group_system(r, elem->group_system, message->group_type);
        leave(r, mark);
        break;
    case IMCODEC__V1__ELEM__KIND_SNS_SYSTEM:
        mark = enter(r, "snsSystem");
        visit_sns_system(r, elem->sns_system);
        leave(r, mark);
        break;
    case IMCODEC__V1__ELEM__KIND_PROFILE_SYSTEM:
        mark = enter(r, "profileSystem");
        visit_profile_system(r, elem->profile_system);
        leave(r, mark);
        break;
    default:
        report(r, "enum.unknown-kind", NULL, 0, 0);
        break;
    }
}

/*
 * The bytes an elem adds to its message's canonical encoding as an entry of
 * `elems` (field 18: a two-byte tag, the length, the elem), a merger counted
 * without its nested messages (M13).
 */
static int64_t body_bytes(Imcodec__V1__Elem *elem) {
    size_t size;
    if (elem->kind_case == IMCODEC__V1__ELEM__KIND_MERGER && elem->merger->n_messages > 0) {
        size_t n = elem->merger->n_messages;
        elem->merger->n_messages = 0;
        size = protobuf_c_message_get_packed_size(&elem->base);
        elem->merger->n_messages = n;
    } else {
        size = protobuf_c_message_get_packed_size(&elem->base);
    }
    size_t length = size;
    size += 3;
    while (length >= 0x80) {
        size++;
        length >>= 7;
    }
    return (int64_t)size;
}

/* ------------------------------------------------------------------------ */
/* Messages and events                                                       */

/* M12: a one-to-one message names a receiver, a group message a group. */
static void check_target(run *r, const Imcodec__V1__Message *message) {
    int no_receiver = message->receiver[0] == '\0', no_group = message->group_id[0] == '\0';
    if (no_receiver && no_group) report(r, "rule.message.target-missing", NULL, 0, 0);
    if (!no_receiver && !no_group) report(r, "rule.message.target-ambiguous", NULL, 0, 0);
}

/* M10: @ lists only on group messages, and only with text elems. */
static void check_at_list(run *r, const Imcodec__V1__Message *message, int is_group) {
    if (!is_group) report(r, "rule.at.not-group-message", "atUserList", 0, 0);
    if (message->n_elems == 0) report(r, "rule.at.text-only", "elems", 0, 0);
    size_t mark = enter(r, "elems");
    for (size_t i = 0; i < message->n_elems; i++) {
        if (message->elems[i]->kind_case == IMCODEC__V1__ELEM__KIND_TEXT) continue;
        size_t at = enter_index(r, i);
        report(r, "rule.at.text-only", NULL, 0, 0);
        leave(r, at);
    }
    leave(r, mark);
    check_user_ids(r, message->at_user_list, message->n_at_user_list, "atUserList");
}

/* M16, M20: the @ type is a documented value that follows from the @ user list. */
static void check_at_type(run *r, const Imcodec__V1__Message *message) {
    int type = (int)message->at_type;
    check_enum(r, &imcodec__v1__group_at_type__descriptor, type, "atType");
    int mentions_all = 0, mentions_user = 0;
    for (size_t i = 0; i < message->n_at_user_list; i++) {
        if (strcmp(message->at_user_list[i], IMCODEC_REF_AT_ALL_USER_ID) == 0)
            mentions_all = 1;
        else
            mentions_user = 1;
    }
    int follows;
    switch (type) {
    case IMCODEC__V1__GROUP_AT_TYPE__GROUP_AT_TYPE_AT_ME:
        follows = mentions_user && !mentions_all;
        break;
    case IMCODEC__V1__GROUP_AT_TYPE__GROUP_AT_TYPE_AT_ALL:
        follows = mentions_all;
        break;
    case IMCODEC__V1__GROUP_AT_TYPE__GROUP_AT_TYPE_AT_ALL_AT_ME:
        follows = mentions_all && mentions_user;
        break;
    default:
        return;
    }
    if (!follows) report(r, "rule.at.type-mismatch", "atType", 0, 0);
}

/* M11: targeted receivers only on group messages, never with @, never for AVChatRoom or Community. */
static void check_targeted(run *r, const Imcodec__V1__Message *message, int is_group) {
    if (!is_group) report(r, "rule.targeted.not-group-message", "targetedReceivers", 0, 0);
    if (message->n_at_user_list > 0) report(r, "rule.targeted.with-at", "targetedReceivers", 0, 0);
    if (strcmp(message->group_type, "AVChatRoom") == 0 || strcmp(message->group_type, "Community") == 0)
        report(r, "rule.targeted.group-type", "targetedReceivers", 0, 0);
    check_user_ids(r, message->targeted_receivers, message->n_targeted_receivers, "targetedReceivers");
}

/*
 * A message at the current path: its own findings, then those of the
 * messages of its mergers, in order, each with its own nested messages
 * (depth first). Recursion is bounded by the decoding depth limit, which
 * the pre-scan enforced.
 */
static void visit_message(run *r, const Imcodec__V1__Message *message, int64_t layer, int in_merger_list) {
    const imcodec_ref_validation_limits *l = r->limits;
    int is_group = message->group_id[0] != '\0';
    check_target(r, message);
    check_user_id(r, message->sender, "sender");
    check_user_id(r, message->receiver, "receiver");
    check_group_id(r, message->group_id, "groupId");
    if (message->group_type[0] != '\0' && l->has_group_types &&
        !in_strings(l->group_types, l->n_group_types, message->group_type))
        report(r, "enum.unknown-group-type", "groupType", 0, 0);
    check_enum(r, &imcodec__v1__priority__descriptor, (int)message->priority, "priority");
    if (message->n_at_user_list > 0) check_at_list(r, message, is_group);
    check_at_type(r, message);
    if (message->n_targeted_receivers > 0) check_targeted(r, message, is_group);
    if (message->n_elems == 0) report(r, "rule.message.elems-missing", "elems", 0, 0);

    int64_t custom_total = 0, custom_seen = 0, body = 0;
    for (size_t i = 0; i < message->n_elems; i++)
        if (message->elems[i]->kind_case == IMCODEC__V1__ELEM__KIND_CUSTOM) custom_total++;
    size_t mark = enter(r, "elems");
    for (size_t i = 0; i < message->n_elems; i++) {
        Imcodec__V1__Elem *elem = message->elems[i];
        size_t at = enter_index(r, i);
        if (in_merger_list && elem->kind_case == IMCODEC__V1__ELEM__KIND_GROUP_TIPS)
            report(r, "rule.merger.contains-group-tips", NULL, 0, 0);
        /* M23: group tips travel in group messages only. */
        if (message->receiver[0] != '\0' && elem->kind_case == IMCODEC__V1__ELEM__KIND_GROUP_TIPS)
            report(r, "rule.group-tips.one-to-one", "groupTips", 0, 0);
        if (elem->kind_case == IMCODEC__V1__ELEM__KIND_CUSTOM && l->has_max_custom_elems) {
            custom_seen++;
            if (custom_seen == l->max_custom_elems + 1)
                report(r, "limit.message.custom-elems", NULL, l->max_custom_elems, custom_total);
        }
        visit_elem(r, elem, message, layer);
        if (l->has_max_message_body_bytes) body += body_bytes(elem);
        leave(r, at);
    }
    leave(r, mark);
    check_count(r, l->has_max_message_body_bytes, l->max_message_body_bytes, body, "limit.message.body-bytes",
                "elems");

    for (size_t i = 0; i < message->n_elems && !r->out_of_memory; i++) {
        const Imcodec__V1__Elem *elem = message->elems[i];
        if (elem->kind_case != IMCODEC__V1__ELEM__KIND_MERGER || !merger_is_visited(r, elem->merger, layer)) continue;
        for (size_t k = 0; k < elem->merger->n_messages; k++) {
            size_t at = enter(r, "elems");
            enter_index(r, i);
            enter(r, "merger");
            enter(r, "messages");
            enter_index(r, k);
            visit_message(r, elem->merger->messages[k], layer + 1, 1);
            leave(r, at);
        }
    }
}

/* C4, F8, G14: one read receipt at the current path. */
static void visit_receipt(run *r, const Imcodec__V1__MessageReceipt *receipt) {
    int one_to_one = receipt->user_id[0] != '\0', group = receipt->group_id[0] != '\0';
    if (!one_to_one && !group) {
        report(r, "rule.receipt.target-missing", NULL, 0, 0);
    } else if (one_to_one && group) {
        report(r, "rule.receipt.target-ambiguous", NULL, 0, 0);
    } else if (group) {
        if (receipt->is_peer_read) report(r, "rule.receipt.peer-read-on-group", "isPeerRead", 0, 0);
    } else {
        if (receipt->read_count != 0) report(r, "rule.receipt.counts-on-one-to-one", "readCount", 0, 0);
        if (receipt->unread_count != 0) report(r, "rule.receipt.counts-on-one-to-one", "unreadCount", 0, 0);
    }
    check_user_id(r, receipt->user_id, "userId");
    check_group_id(r, receipt->group_id, "groupId");
}

/* ------------------------------------------------------------------------ */
/* Relationship chain (relationship.proto)                                   */

/* F1: a friend remark's length. */
static void check_remark(run *r, const char *remark, const char *field) {
    check_count(r, r->limits->has_max_friend_remark_bytes, r->limits->max_friend_remark_bytes,
                (int64_t)strlen(remark), "limit.friend.remark-bytes", field);
}

/* F2: an add-friend wording's length. */
static void check_wording(run *r, const char *wording, const char *field) {
    check_count(r, r->limits->has_max_friend_wording_bytes, r->limits->max_friend_wording_bytes,
                (int64_t)strlen(wording), "limit.sns.wording-bytes", field);
}

/* F1-F3, F7, F8, F11: the entries of a friend list or the blacklist, below `field`. */
static void visit_friends(run *r, Imcodec__V1__Friend *const *friends, size_t n, const char *field) {
    size_t mark = enter(r, field);
    enter(r, "friends");
    const char *prefix = r->limits->friend_custom_key_prefix;
    for (size_t i = 0; i < n; i++) {
        const Imcodec__V1__Friend *friend_ = friends[i];
        size_t at = enter_index(r, i);
        check_user_id(r, friend_->identifier, "identifier");
        check_remark(r, friend_->remark, "remark");
        check_wording(r, friend_->add_wording, "addWording");
        check_add_source(r, friend_->add_source, "addSource");
        if (prefix != NULL) {
            size_t c = enter(r, "customInfo");
            for (size_t k = 0; k < friend_->n_custom_info; k++) {
                if (strncmp(friend_->custom_info[k]->key, prefix, strlen(prefix)) == 0) continue;
                size_t e = enter_index(r, k);
                report(r, "format.friend.custom-key", "key", 0, 0);
                leave(r, e);
            }
            leave(r, c);
        }
        if (friend_->profile != NULL) {
            size_t p = enter(r, "profile");
            visit_profile(r, friend_->profile);
            leave(r, p);
        }
        leave(r, at);
    }
    leave(r, mark);
}

/* F8, F9: a relationship check's question and its per-user results. */
static void visit_friend_check(run *r, const Imcodec__V1__FriendCheck *check) {
    if (check->info != NULL) {
        size_t mark = enter(r, "info");
        check_user_ids(r, check->info->users, check->info->n_users, "users");
        check_enum(r, &imcodec__v1__friend_check_type__descriptor, (int)check->info->check_type, "checkType");
        leave(r, mark);
    }
    size_t mark = enter(r, "results");
    for (size_t i = 0; i < check->n_results; i++) {
        const Imcodec__V1__CheckFriendResult *result = check->results[i];
        size_t at = enter_index(r, i);
        check_user_id(r, result->identifier, "identifier");
        check_enum(r, &imcodec__v1__friend_status__descriptor, (int)result->result_code, "resultCode");
        check_enum(r, &imcodec__v1__friend_relation_type__descriptor, (int)result->result_type, "resultType");
        leave(r, at);
    }
    leave(r, mark);
}

/* F2, F3, F7, F8: pending add-friend requests, at `items`. */
static void visit_pendency_items(run *r, Imcodec__V1__FriendPendencyItem *const *items, size_t n) {
    size_t mark = enter(r, "items");
    for (size_t i = 0; i < n; i++) {
        const Imcodec__V1__FriendPendencyItem *item = items[i];
        size_t at = enter_index(r, i);
        check_user_id(r, item->identifier, "identifier");
        check_add_source(r, item->add_source, "addSource");
        check_wording(r, item->add_wording, "addWording");
        check_profile_bytes(r, strlen(item->nickname), "nickname");
        check_enum(r, &imcodec__v1__pendency_type__descriptor, (int)item->type, "type");
        leave(r, at);
    }
    leave(r, mark);
}

/* F2, F3, F7, F8: a pendency page's request type and its items. */
static void visit_friend_pendency(run *r, const Imcodec__V1__FriendPendencyPage *page) {
    if (page->request != NULL) {
        size_t mark = enter(r, "request");
        check_enum(r, &imcodec__v1__pendency_type__descriptor, (int)page->request->type, "type");
        leave(r, mark);
    }
    visit_pendency_items(r, page->items, page->n_items);
}

/* F8: the users of a relationship-chain notification, at `field.users`. */
static void check_notified_users(run *r, const Imcodec__V1__FriendUserList *list, const char *field) {
    size_t mark = enter(r, field);
    check_user_ids(r, list->users, list->n_users, "users");
    leave(r, mark);
}

/* F1-F3, F7-F9: a relationship-chain event kind; 0 when the kind is another. */
static int visit_relationship(run *r, const Imcodec__V1__Event *event) {
    size_t mark = r->length;
    switch (event->kind_case) {
    case IMCODEC__V1__EVENT__KIND_FRIEND_LIST:
        visit_friends(r, event->friend_list->friends, event->friend_list->n_friends, "friendList");
        break;
    case IMCODEC__V1__EVENT__KIND_BLACKLIST:
        visit_friends(r, event->blacklist->friends, event->blacklist->n_friends, "blacklist");
        break;
    case IMCODEC__V1__EVENT__KIND_FRIEND_REQUEST: {
        const Imcodec__V1__FriendRequest *request = event->friend_request;
        enter(r, "friendRequest");
        check_user_id(r, request->identifier, "identifier");
        check_remark(r, request->remark, "remark");
        check_wording(r, request->add_wording, "addWording");
        check_add_source(r, request->add_source, "addSource");
        break;
    }
    case IMCODEC__V1__EVENT__KIND_FRIEND_RESPONSE: {
        const Imcodec__V1__FriendResponse *response = event->friend_response;
        enter(r, "friendResponse");
        check_enum(r, &imcodec__v1__friend_response_type__descriptor, (int)response->response_type, "responseType");
        check_user_id(r, response->identifier, "identifier");
        check_remark(r, response->remark, "remark");
        /* F12: a remark goes with adding the requester; a rejection carries none. */
        if (response->response_type == IMCODEC__V1__FRIEND_RESPONSE_TYPE__FRIEND_RESPONSE_TYPE_REJECT &&
            response->remark[0] != '\0')
            report(r, "rule.friend-response.remark-on-reject", "remark", 0, 0);
        break;
    }
    case IMCODEC__V1__EVENT__KIND_FRIEND_RESULTS:
        enter(r, "friendResults");
        enter(r, "results");
        for (size_t i = 0; i < event->friend_results->n_results; i++) {
            const Imcodec__V1__FriendResult *result = event->friend_results->results[i];
            size_t at = enter_index(r, i);
            check_user_id(r, result->identifier, "identifier");
            check_enum(r, &imcodec__v1__friend_status__descriptor, (int)result->result_code, "resultCode");
            leave(r, at);
        }
        break;
    case IMCODEC__V1__EVENT__KIND_FRIEND_CHECK:
        enter(r, "friendCheck");
        visit_friend_check(r, event->friend_check);
        break;
    case IMCODEC__V1__EVENT__KIND_FRIEND_PENDENCY:
        enter(r, "friendPendency");
        visit_friend_pendency(r, event->friend_pendency);
        break;
    case IMCODEC__V1__EVENT__KIND_FRIEND_DELETE:
        enter(r, "friendDelete");
        check_user_ids(r, event->friend_delete->users, event->friend_delete->n_users, "users");
        check_enum(r, &imcodec__v1__friend_delete_type__descriptor, (int)event->friend_delete->delete_type,
                   "deleteType");
        break;
    case IMCODEC__V1__EVENT__KIND_FRIENDS_ADDED:
        check_notified_users(r, event->friends_added, "friendsAdded");
        break;
    case IMCODEC__V1__EVENT__KIND_FRIENDS_DELETED:
        check_notified_users(r, event->friends_deleted, "friendsDeleted");
        break;
    case IMCODEC__V1__EVENT__KIND_FRIEND_PENDENCY_DELETED:
        check_notified_users(r, event->friend_pendency_deleted, "friendPendencyDeleted");
        break;
    case IMCODEC__V1__EVENT__KIND_BLACKLIST_ADDED:
        check_notified_users(r, event->blacklist_added, "blacklistAdded");
        break;
    case IMCODEC__V1__EVENT__KIND_BLACKLIST_DELETED:
        check_notified_users(r, event->blacklist_deleted, "blacklistDeleted");
        break;
    case IMCODEC__V1__EVENT__KIND_FRIEND_PROFILES_UPDATED:
        visit_friends(r, event->friend_profiles_updated->friends, event->friend_profiles_updated->n_friends,
                      "friendProfilesUpdated");
        break;
    case IMCODEC__V1__EVENT__KIND_FRIEND_PENDENCY_ADDED:
        enter(r, "friendPendencyAdded");
        visit_pendency_items(r, event->friend_pendency_added->items, event->friend_pendency_added->n_items);
        break;
    case IMCODEC__V1__EVENT__KIND_FRIEND_PENDENCY_READ:
        break;
    case IMCODEC__V1__EVENT__KIND_FRIEND_GROUPS:
        enter(r, "friendGroups");
        enter(r, "groups");
        for (size_t i = 0; i < event->friend_groups->n_groups; i++) {
            const Imcodec__V1__FriendGroup *group = event->friend_groups->groups[i];
            size_t at = enter_index(r, i);
            check_user_ids(r, group->friends, group->n_friends, "friends");
            leave(r, at);
        }
        break;
    default:
        return 0;
    }
    leave(r, mark);
    return 1;
}

/* ------------------------------------------------------------------------ */
/* Group management (group.proto)                                            */

/* G1: a group type from the documented list; empty is unset. */
static void check_group_type(run *r, const char *type, const char *field) {
    if (type[0] == '\0' || !r->limits->has_group_types) return;
    if (!in_strings(r->limits->group_types, r->limits->n_group_types, type))
        report(r, "enum.unknown-group-type", field, 0, 0);
}

/* G4-G6: a group's notification, introduction and face URL, in field order. */
static void check_group_texts(run *r, const char *notification, const char *introduction, const char *face_url) {
    const imcodec_ref_validation_limits *l = r->limits;
    check_count(r, l->has_max_group_notification_bytes, l->max_group_notification_bytes,
                (int64_t)strlen(notification), "limit.group.notification-bytes", "notification");
    check_count(r, l->has_max_group_introduction_bytes, l->max_group_introduction_bytes,
                (int64_t)strlen(introduction), "limit.group.introduction-bytes", "introduction");
    check_count(r, l->has_max_group_face_url_bytes, l->max_group_face_url_bytes, (int64_t)strlen(face_url),
                "limit.group.face-url-bytes", "faceUrl");
}

/* G15: a group's custom fields: their number, then each key and value. */
static void check_group_custom_info(run *r, Imcodec__V1__GroupCustomEntry *const *entries, size_t n) {
    const imcodec_ref_validation_limits *l = r->limits;
    check_count(r, l->has_max_group_custom_fields, l->max_group_custom_fields, (int64_t)n,
                "limit.group.custom-fields", "customInfo");
    size_t mark = enter(r, "customInfo");
    for (size_t i = 0; i < n; i++) {
        size_t at = enter_index(r, i);
        check_count(r, l->has_max_group_custom_key_bytes, l->max_group_custom_key_bytes,
                    (int64_t)strlen(entries[i]->key), "limit.group.custom-key-bytes", "key");
        check_count(r, l->has_max_group_custom_value_bytes, l->max_group_custom_value_bytes,
                    (int64_t)entries[i]->data.len, "limit.group.custom-value-bytes", "data");
        leave(r, at);
    }
    leave(r, mark);
}

/* G2: a member count against the limit of the group's type, when it has one. */
static void check_type_members(run *r, const char *group_type, uint32_t count, const char *field) {
    int64_t limit;
    if (group_type[0] != '\0' && member_limit(r->limits, group_type, &limit))
        check_count(r, 1, limit, (int64_t)count, "limit.group.members", field);
}

/* G1-G6, G14, G15, F8: one group profile's own fields. */
static void visit_group_info(run *r, const Imcodec__V1__GroupInfo *group) {
    const imcodec_ref_validation_limits *l = r->limits;
    check_group_id(r, group->group, "group");
    check_count(r, l->has_max_group_name_bytes, l->max_group_name_bytes, (int64_t)strlen(group->group_name),
                "limit.group.name-bytes", "groupName");
    check_user_id(r, group->owner, "owner");
    check_group_type(r, group->group_type, "groupType");
    check_type_members(r, group->group_type, group->max_member_num, "maxMemberNum");
    if (group->max_member_num != 0 && group->member_num > group->max_member_num)
        report(r, "limit.group.member-num", "memberNum", group->max_member_num, group->member_num);
    check_type_members(r, group->group_type, group->member_num, "memberNum");
    /* G23: an AVChatRoom profile reports no member count and no self info. */
    if (strcmp(group->group_type, AV_CHAT_ROOM) == 0 && group->member_num != 0)
        report(r, "rule.avchatroom.member-num", "memberNum", 0, group->member_num);
    if (strcmp(group->group_type, AV_CHAT_ROOM) == 0 && group->self_info != NULL)
        report(r, "rule.avchatroom.self-info", "selfInfo", 0, 0);
    check_enum(r, &imcodec__v1__group_add_opt__descriptor, (int)group->add_opt, "addOpt");
    if (strcmp(group->group_type, PRIVATE_GROUP) == 0 &&
        (group->add_opt == IMCODEC__V1__GROUP_ADD_OPT__GROUP_ADD_OPT_AUTH ||
         group->add_opt == IMCODEC__V1__GROUP_ADD_OPT__GROUP_ADD_OPT_ANY))
        report(r, "rule.private-group.add-opt", "addOpt", 0, 0);
    check_group_texts(r, group->notification, group->introduction, group->face_url);
    check_enum(r, &imcodec__v1__group_searchable_type__descriptor, (int)group->is_searchable, "isSearchable");
    check_enum(r, &imcodec__v1__group_member_visible_type__descriptor, (int)group->is_member_visible,
               "isMemberVisible");
    if (group->self_info != NULL) {
        size_t mark = enter(r, "selfInfo");
        check_enum(r, &imcodec__v1__group_member_role__descriptor, (int)group->self_info->role, "role");
        check_enum(r, &imcodec__v1__group_receive_message_opt__descriptor, (int)group->self_info->recv_opt,
                   "recvOpt");
        leave(r, mark);
    }
    check_group_custom_info(r, group->custom_info, group->n_custom_info);
}

/* G1-G6, G14 (with the reserved prefix), G15, G16, G20, G21, F8: the parameters of a group creation. */
static void visit_create_group(run *r, const Imcodec__V1__CreateGroupInfo *info) {
    const imcodec_ref_validation_limits *l = r->limits;
    check_group_id(r, info->group, "group");
    const char *prefix = l->reserved_group_id_prefix;
    if (prefix != NULL && prefix[0] != '\0' && strncmp(info->group, prefix, strlen(prefix)) == 0)
        report(r, "format.group.id-prefix", "group", 0, 0);
    check_count(r, l->has_max_group_name_bytes, l->max_group_name_bytes, (int64_t)strlen(info->group_name),
                "limit.group.name-bytes", "groupName");
    check_group_type(r, info->group_type, "groupType");
    if (strcmp(info->group_type, PRIVATE_GROUP) == 0 && info->set_add_opt)
        report(r, "rule.private-group.add-opt", "setAddOpt", 0, 0);
    check_enum(r, &imcodec__v1__group_add_opt__descriptor, (int)info->add_opt, "addOpt");
    check_type_members(r, info->group_type, info->max_member_num, "maxMemberNum");
    check_group_texts(r, info->notification, info->introduction, info->face_url);
    check_group_custom_info(r, info->custom_info, info->n_custom_info);
    if (strcmp(info->group_type, AV_CHAT_ROOM) == 0 && info->n_members_info > 0)
        report(r, "rule.avchatroom.member-addition", "membersInfo", 0, (int64_t)info->n_members_info);
    /* G2: the creator is added without being named, so the initial members
     * are held to the type's member limit less one. */
    for (size_t i = 0; info->group_type[0] != '\0' && i < l->n_max_group_initial_members; i++) {
        if (strcmp(l->max_group_initial_members_keys[i], info->group_type) == 0)
            check_count(r, 1, l->max_group_initial_members_values[i], (int64_t)info->n_members_info,
                        "limit.group.members", "membersInfo");
    }
    size_t mark = enter(r, "membersInfo");
    for (size_t i = 0; i < info->n_members_info; i++) {
        const Imcodec__V1__CreateGroupMemberInfo *member = info->members_info[i];
        size_t at = enter_index(r, i);
        check_user_id(r, member->member, "member");
        check_enum(r, &imcodec__v1__group_member_role__descriptor, (int)member->role, "role");
        /* G19: the creator is the owner; no initial member is named owner. */
        if (member->role == IMCODEC__V1__GROUP_MEMBER_ROLE__GROUP_MEMBER_ROLE_OWNER)
            report(r, "rule.create-group.owner-role", "role", 0, 0);
        check_count(r, l->has_max_member_custom_fields, l->max_member_custom_fields, (int64_t)member->n_custom_info,
                    "limit.member.custom-fields", "customInfo");
        if (l->has_max_member_custom_value_bytes) {
            size_t c = enter(r, "customInfo");
            for (size_t k = 0; k < member->n_custom_info; k++) {
                const Imcodec__V1__MemberCustomEntry *entry = member->custom_info[k];
                if ((int64_t)entry->data.len <= l->max_member_custom_value_bytes) continue;
                size_t e = enter_index(r, k);
                check_count(r, 1, l->max_member_custom_value_bytes, (int64_t)entry->data.len,
                            "limit.member.custom-value-bytes", "data");
                leave(r, e);
            }
            leave(r, c);
        }
        leave(r, at);
    }
    leave(r, mark);
}

/* G14, G22, F8: one application to join or invitation. */
static void visit_group_pendency(run *r, const Imcodec__V1__GroupPendencyItem *item) {
    check_group_id(r, item->group_id, "groupId");
    check_user_id(r, item->from_user, "fromUser");
    check_user_id(r, item->to_user, "toUser");
    if (item->get_type == IMCODEC__V1__GROUP_PENDENCY_GET_TYPE__GROUP_PENDENCY_GET_TYPE_JOIN && item->to_user[0] != '\0' &&
        strcmp(item->to_user, "0") != 0)
        report(r, "rule.group-pendency.to-user-type", "toUser", 0, 0);
    else if (item->get_type == IMCODEC__V1__GROUP_PENDENCY_GET_TYPE__GROUP_PENDENCY_GET_TYPE_INVITE && item->to_user[0] == '\0')
        report(r, "rule.group-pendency.to-user-missing", "toUser", 0, 0);
    check_enum(r, &imcodec__v1__group_pendency_get_type__descriptor, (int)item->get_type, "getType");
    check_enum(r, &imcodec__v1__group_pendency_handle_status__descriptor, (int)item->handle_status, "handleStatus");
    check_enum(r, &imcodec__v1__group_pendency_handle_result__descriptor, (int)item->handle_result, "handleResult");
    check_user_id(r, item->self_identifier, "selfIdentifier");
}

/* The last message a group or conversation carries, at `name` inside the
 * entry whose path is current; nothing when there is none. The caller leaves
 * the entry. */
static void visit_last_message(run *r, const Imcodec__V1__Message *message, const char *name) {
    if (message == NULL)
        return;
    enter(r, name);
    visit_message(r, message, 0, 0);
}

/* G1-G7, G14-G16, F8: a group-management event kind; 0 when the kind is another. */
static int visit_group_management(run *r, const Imcodec__V1__Event *event) {
    size_t mark = r->length;
    switch (event->kind_case) {
    case IMCODEC__V1__EVENT__KIND_GROUP_PROFILES:
        enter(r, "groupProfiles");
        enter(r, "groups");
        for (size_t i = 0; i < event->group_profiles->n_groups && !r->out_of_memory; i++) {
            const Imcodec__V1__GroupInfo *group = event->group_profiles->groups[i];
            size_t at = enter_index(r, i);
            visit_group_info(r, group);
            visit_last_message(r, group->last_msg, "lastMsg");
            leave(r, at);
        }
        break;
    case IMCODEC__V1__EVENT__KIND_CREATE_GROUP:
        enter(r, "createGroup");
        visit_create_group(r, event->create_group);
        break;
    case IMCODEC__V1__EVENT__KIND_GROUP_MEMBERS:
        enter(r, "groupMembers");
        check_group_id(r, event->group_members->group_id, "groupId");
        enter(r, "members");
        for (size_t i = 0; i < event->group_members->n_members; i++) {
            size_t at = enter_index(r, i);
            visit_member(r, event->group_members->members[i]);
            leave(r, at);
        }
        break;
    case IMCODEC__V1__EVENT__KIND_GROUP_MEMBER_RESULTS:
        enter(r, "groupMemberResults");
        check_group_id(r, event->group_member_results->group_id, "groupId");
        enter(r, "results");
        for (size_t i = 0; i < event->group_member_results->n_results; i++) {
            const Imcodec__V1__GroupMemberResult *result = event->group_member_results->results[i];
            size_t at = enter_index(r, i);
            check_user_id(r, result->member, "member");
            check_enum(r, &imcodec__v1__group_member_status__descriptor, (int)result->status, "status");
            leave(r, at);
        }
        break;
    case IMCODEC__V1__EVENT__KIND_GROUP_PENDENCY:
        enter(r, "groupPendency");
        enter(r, "items");
        for (size_t i = 0; i < event->group_pendency->n_items; i++) {
            size_t at = enter_index(r, i);
            visit_group_pendency(r, event->group_pendency->items[i]);
            leave(r, at);
        }
        break;
    default:
        return 0;
    }
    leave(r, mark);
    return 1;
}

/* G1, G14, F8: one conversation's own fields (its last message is validated by the caller). */
static void visit_conversation(run *r, const Imcodec__V1__Conversation *conversation) {
    check_discriminator(r, &imcodec__v1__conversation_type__descriptor, (int)conversation->type, "type");
    check_user_id(r, conversation->user_id, "userId");
    check_group_id(r, conversation->group_id, "groupId");
    check_group_type(r, conversation->group_type, "groupType");
    size_t mark = enter(r, "groupAtInfoList");
    for (size_t i = 0; i < conversation->n_group_at_info_list; i++) {
        size_t at = enter_index(r, i);
        check_enum(r, &imcodec__v1__group_at_type__descriptor, (int)conversation->group_at_info_list[i]->at_type,
                   "atType");
        leave(r, at);
    }
    leave(r, mark);
    check_enum(r, &imcodec__v1__receive_message_opt__descriptor, (int)conversation->recv_opt, "recvOpt");
}

/* C6: an error code is 0 or one ImErrorCode names. */
static void check_documented_code(run *r, int32_t code) {
    if (!is_named(&imcodec__v1__im_error_code__descriptor, code)) report(r, "code.undocumented", "code", 0, code);
}

/* C1-C6: an event; a modification's message is validated as a message, a
 * read-member page's members as members; the relationship-chain and group
 * kinds are validated by their own visitors. */
static void visit_event(run *r, const Imcodec__V1__Event *event) {
    size_t mark = r->length;
    switch (event->kind_case) {
    case IMCODEC__V1__EVENT__KIND_READ_RECEIPT:
        enter(r, "readReceipt");
        enter(r, "receipts");
        for (size_t i = 0; i < event->read_receipt->n_receipts; i++) {
            size_t at = enter_index(r, i);
            visit_receipt(r, event->read_receipt->receipts[i]);
            leave(r, at);
        }
        break;
    case IMCODEC__V1__EVENT__KIND_RECALL:
        enter(r, "recall");
        if (event->recall->msg_id[0] == '\0') report(r, "rule.recall.msg-id-missing", "msgId", 0, 0);
        break;
    case IMCODEC__V1__EVENT__KIND_MODIFICATION:
        enter(r, "modification");
        if (event->modification->message != NULL) {
            enter(r, "message");
            visit_message(r, event->modification->message, 0, 0);
        } else {
            report(r, "rule.modification.message-missing", "message", 0, 0);
        }
        break;
    case IMCODEC__V1__EVENT__KIND_CONNECTION: {
        const Imcodec__V1__ConnectionEvent *connection = event->connection;
        enter(r, "connection");
        /* An event that carries a RongCloud status may leave the state unset (C3). */
        if (connection->rong_cloud_status != NULL) {
            if (connection->state != 0)
                check_discriminator(r, &imcodec__v1__connection_state__descriptor, (int)connection->state, "state");
            size_t at = enter(r, "rongCloudStatus");
            check_enum(r, &imcodec__v1__connection_status_code__descriptor, (int)connection->rong_cloud_status->code,
                       "code");
            leave(r, at);
        } else {
            check_discriminator(r, &imcodec__v1__connection_state__descriptor, (int)connection->state, "state");
        }
        check_documented_code(r, connection->code);
        if (connection->state == IMCODEC__V1__CONNECTION_STATE__CONNECTION_STATE_CONNECTED ||
            connection->state == IMCODEC__V1__CONNECTION_STATE__CONNECTION_STATE_CONNECTING) {
            if (connection->code != 0) report(r, "rule.connection.code-state", "code", 0, connection->code);
            if (connection->text[0] != '\0') report(r, "rule.connection.code-state", "text", 0, 0);
        }
        break;
    }
    case IMCODEC__V1__EVENT__KIND_USER_STATUS: {
        const Imcodec__V1__UserStatusEvent *status = event->user_status;
        enter(r, "userStatus");
        check_discriminator(r, &imcodec__v1__user_status_type__descriptor, (int)status->type, "type");
        check_documented_code(r, status->code);
        if (status->type == IMCODEC__V1__USER_STATUS_TYPE__USER_STATUS_TYPE_FORCED_OFFLINE ||
            status->type == IMCODEC__V1__USER_STATUS_TYPE__USER_STATUS_TYPE_USER_SIG_EXPIRED) {
            if (status->code != 0) report(r, "rule.user-status.code-type", "code", 0, status->code);
            if (status->text[0] != '\0') report(r, "rule.user-status.code-type", "text", 0, 0);
        }
        break;
    }
    case IMCODEC__V1__EVENT__KIND_READ_MEMBERS:
        enter(r, "readMembers");
        enter(r, "members");
        for (size_t i = 0; i < event->read_members->n_members; i++) {
            size_t at = enter_index(r, i);
            visit_member(r, event->read_members->members[i]);
            leave(r, at);
        }
        leave(r, mark);
        enter(r, "readMembers");
        check_enum(r, &imcodec__v1__read_members_filter__descriptor, (int)event->read_members->filter, "filter");
        break;
    case IMCODEC__V1__EVENT__KIND_CONVERSATIONS:
        enter(r, "conversations");
        enter(r, "conversations");
        for (size_t i = 0; i < event->conversations->n_conversations && !r->out_of_memory; i++) {
            const Imcodec__V1__Conversation *conversation = event->conversations->conversations[i];
            size_t at = enter_index(r, i);
            visit_conversation(r, conversation);
            visit_last_message(r, conversation->last_message, "lastMessage");
            leave(r, at);
        }
        break;
    default:
        if (!visit_relationship(r, event) && !visit_group_management(r, event))
            report(r, "enum.unknown-kind", NULL, 0, 0);
        break;
    }
    leave(r, mark);
}

/* ------------------------------------------------------------------------ */
/* Public API                                                                */

const imcodec_ref_validation_limits *imcodec_ref_validation_profile(const char *name) {
    if (name == NULL) return NULL;
    for (size_t i = 0; i < IMCODEC_REF_VALIDATION_PROFILE_NAME_COUNT; i++)
        if (strcmp(name, imcodec_ref_validation_profile_names[i].name) == 0)
            return imcodec_ref_validation_profile_names[i].limits;
    return NULL;
}

void imcodec_ref_findings_free(imcodec_ref_findings *findings) {
    if (findings == NULL) return;
    for (size_t i = 0; i < findings->count; i++)
        free(findings->items[i].path);
    free(findings->items);
    findings->items = NULL;
    findings->count = 0;
    findings->capacity = 0;
}

imcodec_ref_status imcodec_ref_validate_payload(imcodec_ref_kind kind, const unsigned char *bytes, size_t len,
                                                const imcodec_ref_limits *limits,
                                                const imcodec_ref_validation_limits *profile,
                                                imcodec_ref_findings *out, imcodec_ref_error *err) {
    static const unsigned char empty[1] = {0};
    if (out == NULL || profile == NULL)
        return imcodec_ref__status(err, IMCODEC_REF_MISUSE, "out and profile are required");
    memset(out, 0, sizeof *out);
    const ProtobufCMessageDescriptor *desc = imcodec_ref__kind_descriptor(kind);
    if (desc == NULL)
        return imcodec_ref__status(err, IMCODEC_REF_MISUSE, "payload kind %d is not 1, 2 or 3", (int)kind);
    if (bytes == NULL && len > 0) return imcodec_ref__status(err, IMCODEC_REF_MISUSE, "bytes is NULL");
    if (bytes == NULL) bytes = empty;
    imcodec_ref_limits defaults = imcodec_ref_limits_default();
    if (limits == NULL) limits = &defaults;

    imcodec_ref_status st = imcodec_ref__prescan(desc, bytes, len, limits, err);
    if (st != IMCODEC_REF_OK) return st;
    ProtobufCMessage *value = protobuf_c_message_unpack(desc, NULL, len, bytes);
    if (value == NULL)
        return imcodec_ref__status(err, IMCODEC_REF_UNSUPPORTED,
                                   "protobuf-c cannot unpack this payload although it passed the pre-scan");

    run r = {profile, out, NULL, 0, 0, 0};
    switch (kind) {
    case IMCODEC_REF_KIND_MESSAGE:
        visit_message(&r, (const Imcodec__V1__Message *)value, 0, 0);
        break;
    case IMCODEC_REF_KIND_BATCH: {
        const Imcodec__V1__MessageBatch *batch = (const Imcodec__V1__MessageBatch *)value;
        for (size_t i = 0; i < batch->n_messages && !r.out_of_memory; i++) {
            const Imcodec__V1__Message *message = batch->messages[i];
            size_t mark = enter(&r, "messages");
            size_t at = enter_index(&r, i);
            visit_message(&r, message, 0, 0);
            leave(&r, at);
            enter_index(&r, i);
            /* M21: a history page or an offline sync holds stored messages only. */
            if (strcmp(message->group_type, AV_CHAT_ROOM) == 0) report(&r, "rule.batch.avchatroom", "groupType", 0, 0);
            if (message->online_user_only) report(&r, "rule.batch.online-only", "onlineUserOnly", 0, 0);
            leave(&r, mark);
        }
        break;
    }
    case IMCODEC_REF_KIND_EVENT:
        visit_event(&r, (const Imcodec__V1__Event *)value);
        break;
    }
    protobuf_c_message_free_unpacked(value, NULL);
    free(r.path);
    if (r.out_of_memory) {
        imcodec_ref_findings_free(out);
        return imcodec_ref__status(err, IMCODEC_REF_NO_MEMORY, "out of memory while validating");
    }
    return IMCODEC_REF_OK;
}
