"""What is generated from Schemas/, written once: the schema files, the
other inputs, and every output with what writes it.

scripts/codegen/regenerate.py reads these lists to regenerate, and
scripts/checks/check_generated.py to regenerate into a temporary folder and
compare, to check the oracle's digests and to check that .gitattributes marks
every output `linguist-generated`; scripts/lib/schema.py reads SCHEMAS.

An output is one of:
- a folder, the generators' alone: emptied before a regeneration and compared
  file by file, so a stale or extra file is a difference too;
- a file, the generators' alone;
- a section: the text between two markers of a hand-written document (the
  rest of that document is not generated, and it is not marked generated).
"""

import collections

# The schema files, relative to Schemas/, in dependency order: every
# generator reads these (protoc parses them; scripts/lib/schema.py reads the
# descriptor set).
SCHEMAS = (
    "imcodec/v1/model.proto", "imcodec/v1/relationship.proto", "imcodec/v1/group.proto", "imcodec/v1/event.proto",
    "imcodec/testee/v1/testee.proto",
)
# The constraint options the schemas import: read by the generators through
# the descriptor set; only the Python testee needs its generated module.
OPTIONS_SCHEMA = "imcodec/constraints/v1/constraints.proto"
# The REST form's declaration (scripts/lib/rest_form.py reads it; scripts/codegen/generate_rest.py,
# the REST vector writer and the fuzz dictionaries are made from it).
DECLARATIONS = ("Schemas/imcodec/rest/v1/rest.json",)
# The preset dictionaries, Schemas/dictionaries/<id>.bin, embedded in Swift and C.
DICTIONARIES = "Schemas/dictionaries"

# The swift-protobuf oracle's digests: the schema files it was generated from
# and the files it is, in `sha256sum` form. Regenerating the oracle needs
# protoc-gen-swift, which CI never builds, so the check compares digests
# instead of regenerating it.
ORACLE_MANIFEST = "scripts/codegen/oracle.sha256"

Output = collections.namedtuple("Output", "path kind writer oracle", defaults=(False,))

OUTPUTS = (
    Output("Sources/IMCodec/Generated", "folder",
           "generate_swift.py (model, codecs, schema table, reflection), generate_constraints.py (DecodingLimits), "
           "embed_dictionary_swift.py (Dictionary<id>.swift)"),
    Output("Sources/IMCodecValidation/Generated", "folder",
           "generate_constraints.py, generate_swift_rules.py (the rule table, the limits by index), "
           "generate_swift_compiled.py (the visits compiled from the rule table)"),
    Output("Sources/IMCodecTestee/Generated", "folder", "generate_swift.py"),
    Output("Sources/IMCodecTestSupport/Generated", "folder", "generate_swift.py"),
    Output("Sources/IMCodecConformance/Generated", "folder", "generate_constraints.py"),
    Output("Sources/IMCodecReference/Generated", "folder",
           "protoc-c, generate_constraints.py (constraints.h, constraints.c), "
           "generate_c_rules.py (validate_rules.h, validate_rules.c), embed_dictionary_c.py"),
    Output("Sources/IMCodecREST/Generated", "folder", "generate_rest.py (RESTForms, RESTElemType, the table mappings)"),
    Output("testees/python/generated", "folder", "protoc --python_out"),
    Output("testees/java/generated", "folder", "protoc --java_out"),
    Output("js/generated", "folder", "generate_js.py, generate_constraints.py (rules.js), generate_rest.py (rest.js)"),
    Output("docs/spec/limits.md", "file", "generate_constraints.py"),
    Output("docs/spec/error-and-finding-codes.md", "section", "generate_constraints.py (the finding code table)"),
    Output("docs/spec/rest.md", "section", "generate_rest.py (the REST key tables)"),
    Output("FuzzTesting/FuzzPayload.dict", "file", "scripts/fuzz/make_fuzz_dicts.py"),
    Output("FuzzTesting/FuzzJSON.dict", "file", "scripts/fuzz/make_fuzz_dicts.py"),
    Output("FuzzTesting/FuzzFrame.dict", "file", "scripts/fuzz/make_fuzz_dicts.py"),
    Output("FuzzTesting/FuzzStream.dict", "file", "scripts/fuzz/make_fuzz_dicts.py"),
    Output("FuzzTesting/FuzzREST.dict", "file", "scripts/fuzz/make_fuzz_dicts.py"),
    Output("FuzzTesting/FuzzReference.dict", "file", "scripts/fuzz/make_fuzz_dicts.py"),
    Output("FuzzTesting/FuzzValidate.dict", "file", "scripts/fuzz/make_fuzz_dicts.py"),
    Output("Sources/IMCodecOracle/Generated", "folder", "protoc-gen-swift (swift-protobuf)", oracle=True),
    Output(ORACLE_MANIFEST, "file", "regenerate.py, with the oracle", oracle=True),
)
