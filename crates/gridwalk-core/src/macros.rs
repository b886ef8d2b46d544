//! Small macros for repeated impls: enums named on the command line and in menus get their
//! `Display` and `FromStr` (an error lists every accepted name); counters get `AddAssign`;
//! queue keys of two costs get a branch-free order; planners get their tracing methods.

/// `"a, b or c"`.
pub(crate) fn one_of(names: &[&str]) -> String {
    match names {
        [] => String::new(),
        [one] => (*one).to_string(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
    }
}

/// Implements `Display` (the name) and `FromStr` (by name, over `ALL`) for `$ty`, whose
/// method `$name` gives each value's name; `$what` names the kind in errors.
macro_rules! named_enum {
    ($ty:ident, $name:ident, $what:literal) => {
        impl std::fmt::Display for $ty {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.$name())
            }
        }

        impl std::str::FromStr for $ty {
            type Err = String;

            fn from_str(s: &str) -> Result<Self, String> {
                $ty::ALL
                    .into_iter()
                    .find(|v| v.$name() == s)
                    .ok_or_else(|| {
                        let names: Vec<&str> = $ty::ALL.iter().map(|v| v.$name()).collect();
                        let expected = crate::macros::one_of(&names);
                        format!("unknown {} '{s}': expected {expected}", $what)
                    })
            }
        }
    };
}

/// Implements `AddAssign` for a struct of counters by adding each listed field.
macro_rules! add_fields {
    ($ty:ident: $($field:ident),+) => {
        impl std::ops::AddAssign for $ty {
            fn add_assign(&mut self, o: $ty) {
                $(self.$field += o.$field;)+
            }
        }
    };
}

/// Implements `Eq` and `Ord` for `$ty`, a key of two [`crate::cost::Cost`] fields ordered like
/// the tuple `($first, $second)`, by comparing them as one 128-bit number: a couple of
/// branch-free instructions where the tuple comparison branches.
macro_rules! wide_order {
    ($ty:ident: $first:ident, $second:ident) => {
        impl $ty {
            #[inline(always)]
            fn wide(self) -> u128 {
                ((self.$first as u128) << 64) | self.$second as u128
            }
        }

        impl PartialEq for $ty {
            #[inline(always)]
            fn eq(&self, other: &Self) -> bool {
                self.wide() == other.wide()
            }
        }

        impl Eq for $ty {}

        impl Ord for $ty {
            #[inline(always)]
            fn cmp(&self, other: &Self) -> std::cmp::Ordering {
                self.wide().cmp(&other.wide())
            }
        }

        impl PartialOrd for $ty {
            #[inline(always)]
            fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
                Some(self.cmp(other))
            }

            #[inline(always)]
            fn lt(&self, other: &Self) -> bool {
                self.wide() < other.wide()
            }

            #[inline(always)]
            fn le(&self, other: &Self) -> bool {
                self.wide() <= other.wide()
            }

            #[inline(always)]
            fn gt(&self, other: &Self) -> bool {
                self.wide() > other.wide()
            }

            #[inline(always)]
            fn ge(&self, other: &Self) -> bool {
                self.wide() >= other.wide()
            }
        }
    };
}

/// The tracing methods of a [`GoalPlanner`](crate::planner::GoalPlanner) that keeps its
/// [`Recorder`](crate::trace::Recorder) in the field named: `recorder_methods!(rec);` inside
/// the trait's impl.
macro_rules! recorder_methods {
    ($rec:ident) => {
        fn set_tracing(&mut self, on: bool) {
            self.$rec.set(on);
        }

        fn last_trace(&self) -> &$crate::trace::Trace {
            self.$rec.trace()
        }

        fn take_last_trace(&mut self) -> $crate::trace::Trace {
            self.$rec.take()
        }
    };
}

#[cfg(test)]
mod tests {
    use crate::{Algorithm, sim::OnArrival};

    #[test]
    fn names_round_trip_and_errors_list_them_all() {
        for a in Algorithm::ALL {
            assert_eq!(a.to_string().parse::<Algorithm>(), Ok(a));
        }
        for p in OnArrival::ALL {
            assert_eq!(p.to_string().parse::<OnArrival>(), Ok(p));
            assert_eq!(p.name().parse::<OnArrival>(), Ok(p));
        }
        assert!("roam".parse::<OnArrival>().unwrap_err().contains("roam"));
        assert_eq!(
            "x".parse::<Algorithm>().unwrap_err(),
            "unknown algorithm 'x': expected dstar-lite, dstar, astar, dijkstra, mpgaa or greedy"
        );
        assert_eq!(
            "".parse::<OnArrival>().unwrap_err(),
            "unknown arrival policy '': expected stay, wander or patrol"
        );
        assert_eq!(super::one_of(&["a"]), "a");
    }
}
