//! The message log the panel shows: refusals, errors and what commands did.

use std::collections::VecDeque;

use bevy::prelude::*;
use gridwalk_core::Pos;
use gridwalk_core::sim::SimError;

/// How bad a notice is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoticeKind {
    /// Something happened.
    Info,
    /// A click or an edit was refused.
    Refused,
    /// A file could not be read or written.
    Error,
}

/// One line of the panel's message area.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Notice {
    /// How bad.
    pub kind: NoticeKind,
    /// What happened, in words.
    pub text: String,
}

/// The latest messages for the panel: refusals, errors and what commands did.
#[derive(Resource, Default, Debug)]
pub struct Notices {
    entries: VecDeque<Notice>,
    serial: u64,
}

impl Notices {
    /// How many notices are kept.
    pub const KEEP: usize = 8;

    /// Adds a notice, dropping the oldest beyond [`Self::KEEP`].
    pub fn push(&mut self, kind: NoticeKind, text: impl Into<String>) {
        let text = text.into();
        info!("{text}");
        self.entries.push_back(Notice { kind, text });
        while self.entries.len() > Self::KEEP {
            self.entries.pop_front();
        }
        self.serial += 1;
    }

    /// The notices, oldest first.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = &Notice> {
        self.entries.iter()
    }

    /// The newest notice.
    pub fn last(&self) -> Option<&Notice> {
        self.entries.back()
    }

    /// Number of notices ever pushed: changes whenever a new one arrives.
    pub fn serial(&self) -> u64 {
        self.serial
    }

    /// Forgets every notice.
    pub fn clear(&mut self) {
        self.entries.clear();
    }
}

/// One notice for the refused edits of a tick: the first reason, and how many in all.
pub fn report_refusals(refused: &[(Pos, SimError)], notices: &mut Notices) {
    let Some((pos, first)) = refused.first() else {
        return;
    };
    let text = match refused.len() {
        1 => format!("edit of {pos} refused: {first}"),
        n => format!("{n} edits refused, e.g. {pos}: {first}"),
    };
    notices.push(NoticeKind::Refused, text);
}
