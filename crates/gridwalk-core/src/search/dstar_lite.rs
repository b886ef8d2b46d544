//! D* Lite (in progress).
