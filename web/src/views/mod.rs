//! The views: one Yew function component per file, fed by `view_model` data. See README.md.
