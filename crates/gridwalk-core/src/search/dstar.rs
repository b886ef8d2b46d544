//! D* (Stentz) (in progress).
