"""REST validation for the Python testee (`validate_rest`, docs/spec/rest.md,
"Validation"): the import problems of a document (imcodec_rest.py), or, when
there are none, the findings of the validator (imcodec_validate.py) on the
imported value with their paths turned into REST paths, and the limits the
declarations mark `applies_to: "rest"` measured on the values the document
holds. The key of every path component comes from the REST form's
declaration, the limits from the constraint declarations of Schemas/.

    findings = imcodec_rest_validate.validate_rest(text, profile, limits, nesting_break)
"""

import re

from google.protobuf import json_format

import imcodec_rest as rest
import imcodec_validate as engine
from imcodec.v1 import model_pb2 as mp

# The limit measured on the REST form's own text, the compact canonical MsgBody (docs/spec/rest.md,
# "Validation"), instead of on the model's encoding.
BODY_LIMIT = "maxMessageBodyBytes"
PROBLEMS_CODE = "limit.problems"
# A message names no target in a REST body outside a relay: the requests name it in the call.
TARGET_MISSING = "rule.message.target-missing"
# The model's finding (FieldConstraints.defined_enum) that a REST-only limit on the same value replaces.
UNKNOWN_ENUM = "enum.unknown-value"


def _rest_limits(declarations):
    """The limits of the REST form only, by (model message, field): applied to the values of those fields as
    the document holds them."""
    out = {}
    for (message, field), applied in declarations.applied.items():
        for use in applied:
            if use.limit.applies_to == "rest":
                out.setdefault((message.rpartition(".")[2], field), []).append(use.limit)
    return out


# ---------------------------------------------------------------------------
# Paths: the payload path of a finding as the REST path of the same value
# ---------------------------------------------------------------------------

ELEM = "elem"  # the place of an element object: its field is the elem kind


def _path_steps():
    """For each form, the REST keys of each model field (by its JSON name) and the place they lead to."""
    steps = {}
    for form, keys in rest.FORMS.items():
        table = steps.setdefault(form, {})
        for key in keys:
            if key.field is None:
                continue
            place = ELEM if key.value == "body" else key.form
            table[rest._camel(key.field)] = ([key.name], place)
    for form, keys in rest.FORMS.items():
        for key in keys:
            if key.outside:
                model, field = key.outside.split(".")
                for holder, holder_keys in rest.FORMS.items():
                    if rest.FORM_MODELS[holder] != model:
                        continue
                    for outer in holder_keys:
                        if outer.form == form:
                            steps[holder][rest._camel(field)] = ([outer.name, key.name], None)
    elem = steps.setdefault(ELEM, {})
    for decl in rest.FORM["elems"]:
        elem[rest._camel(decl["kind"])] = ([rest.ELEMENT_KEYS[1]], decl["form"])
    return steps


STEPS = _path_steps()


def _components(path):
    return [(name, int(index) if index else None) for name, index in re.findall(r"([^.\[\]]+)|\[(\d+)\]", path)]


def rest_path(path, list_key=None):
    """The REST path of a payload path into a message, or, with `list_key`, into a batch."""
    place = "message" if list_key is None else None
    out = ""
    for position, (name, index) in enumerate(_components(path)):
        if index is not None:
            out += "[%d]" % index
            continue
        if position == 0 and list_key is not None and name == "messages":
            keys, place = [list_key], "message"
        else:
            keys, place = STEPS.get(place, {}).get(name, ([name], None))
        for key in keys:
            out = key if out == "" else out + "." + key
    return out


# ---------------------------------------------------------------------------
# Validation
# ---------------------------------------------------------------------------


def _error(code, path, limit=None, actual=None):
    return (code, path, "error", limit, actual)


def validate_rest(text, profile, limits, nesting_break=None):
    """Every finding of a REST document under the named profile, as (code, path, severity, limit, actual)
    tuples. Raises imcodec_validate.UnknownProfile for a profile the declarations do not know."""
    declarations = engine.declarations(mp.MessageBatch.DESCRIPTOR)
    engine.Run(declarations, profile)  # refuses an unknown profile before anything is read
    rest_limits = _rest_limits(declarations)
    importer = rest.Importer(limits, nesting_break, watched=rest_limits)
    value = importer.document(text, batch=None)
    if importer.problems:
        keep = limits["max_problems"]
        findings = [_error(code, path, limit, observed) for code, path, limit, observed in importer.problems[:keep]]
        if len(importer.problems) > keep:
            findings.append(_error(PROBLEMS_CODE, "", keep, len(importer.problems)))
        return findings

    batch = importer.shape == "batch"
    list_key = importer.list_key if batch else None
    model = mp.MessageBatch() if batch else mp.Message()
    json_format.ParseDict(value, model, max_recursion_depth=3 * limits["max_depth"] + 16)
    messages = list(enumerate(model.messages)) if batch else [(None, model)]
    profile_field = engine.PROFILE_FIELDS[profile]

    # The REST-only limits, on the values as the document holds them, in document order.
    run = engine.Run(declarations, profile)
    measured_at = set()
    for model_name, field, path, number in importer.values:
        for limit in rest_limits[(model_name, field)]:
            bound = engine.Declarations.value(limit, profile_field)
            if bound is None:
                continue
            before = len(run.findings)
            run.measure_value(limit, bound, number, path, None)
            if len(run.findings) > before:
                measured_at.add(path)

    # The model's findings at REST paths; the body limit is measured on the REST text below instead.
    findings = []
    for code, path, severity, limit, actual in engine.validate(model, profile, skipped=(BODY_LIMIT,)):
        path = rest_path(path, list_key)
        if code == TARGET_MISSING and rest.ELEMENT_KEYS[1] not in path.split("."):
            continue
        if code == UNKNOWN_ENUM and path in measured_at:
            continue
        findings.append((code, path, severity, limit, actual))

    body_limit = declarations.limits[BODY_LIMIT]
    bound = engine.Declarations.value(body_limit, profile_field)
    if bound is not None:
        body_key = next(k.name for k in rest.FORMS["message"] if k.value == "body")
        writer = rest.Writer()
        for index, message in messages:
            size = len(rest.dump([writer.elem(e) for e in message.elems]).encode("utf-8"))
            if size > bound:
                path = body_key if index is None else "%s[%d].%s" % (list_key, index, body_key)
                findings.append((body_limit.code, path, engine.SEVERITIES[body_limit.code], bound, size))
    return findings + run.findings
