//! Plain data extracted from a run at the cursor, for the views. No Yew here, and no model
//! types: every struct is serde data so it can later cross a Web Worker boundary.
