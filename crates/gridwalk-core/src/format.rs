//! RON and Moving AI file formats (in progress).
