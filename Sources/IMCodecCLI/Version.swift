/// The release of imcodec: the number in `VERSION` at the top of the
/// repository, written here by `scripts/release/check_version.py --update`
/// (CI fails when the two differ; VERSIONING.md says what a release promises).
let imcodecRelease = "0.1.0"
