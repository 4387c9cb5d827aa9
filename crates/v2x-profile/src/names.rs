//! Closed sets of names (protocols, operations, variant parts): parsed from and written as
//! the human-readable strings of profile files, scenario files and bench results, with an
//! error that lists the valid names when a name is unknown.

use thiserror::Error;

/// A name that is not in its set; `valid` lists the set.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("unknown {what} `{name}` (valid: {})", valid.join(", "))]
pub struct UnknownName {
    /// What kind of name, e.g. `protocol`, `operation`.
    pub what: &'static str,
    pub name: String,
    pub valid: Vec<&'static str>,
}

/// Defines a `Copy` enum whose variants have fixed string names: `name()`, `ALL`, `NAMES`,
/// `FromStr` (error: [`UnknownName`]), `Display` and serde as that string.
#[macro_export]
macro_rules! named_enum {
    (
        $(#[$meta:meta])*
        $vis:vis enum $ty:ident ($what:literal) {
            $( $(#[$vmeta:meta])* $variant:ident = $name:literal ),+ $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        $vis enum $ty {
            $( $(#[$vmeta])* $variant ),+
        }

        impl $ty {
            /// Every value, in declaration order.
            pub const ALL: &'static [$ty] = &[$($ty::$variant),+];
            /// The names of [`Self::ALL`], in the same order.
            pub const NAMES: &'static [&'static str] = &[$($name),+];

            /// The name used in files and on the command line.
            pub fn name(self) -> &'static str {
                match self {
                    $($ty::$variant => $name),+
                }
            }
        }

        impl ::std::str::FromStr for $ty {
            type Err = $crate::UnknownName;
            fn from_str(s: &str) -> Result<Self, Self::Err> {
                match s {
                    $($name => Ok($ty::$variant),)+
                    _ => Err($crate::UnknownName {
                        what: $what,
                        name: s.to_string(),
                        valid: Self::NAMES.to_vec(),
                    }),
                }
            }
        }

        impl ::std::fmt::Display for $ty {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str(self.name())
            }
        }

        impl ::serde::Serialize for $ty {
            fn serialize<S: ::serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.name())
            }
        }

        impl<'de> ::serde::Deserialize<'de> for $ty {
            fn deserialize<D: ::serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let s = <::std::borrow::Cow<'de, str> as ::serde::Deserialize>::deserialize(d)?;
                s.parse().map_err(::serde::de::Error::custom)
            }
        }
    };
}
