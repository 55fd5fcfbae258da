//! Named schemas for the games' tagged unions (commands, events, views).
//!
//! serde writes every variant as one JSON object with a `type` field. utoipa would describe such
//! an enum with anonymous inline variants, which generated clients name `..._type_0`; instead
//! each variant is a struct with a named schema of its own, the `type` property is added to that
//! schema, and the union is a `oneOf` of references with a discriminator on `type`.

use utoipa::openapi::schema::{Discriminator, ObjectBuilder, OneOfBuilder, Schema, Type};
use utoipa::openapi::{Ref, RefOr};

/// A serde enum tagged by `type`, one struct per variant, whose tags are the structs' names.
pub trait TaggedUnion {
    /// Every tag, in declaration order.
    const TAGS: &'static [&'static str];
    /// This value's tag.
    fn tag(&self) -> &'static str;
    /// Each variant's schema (with its `type` property) and the schemas they depend on.
    fn variant_schemas(out: &mut Vec<(String, RefOr<Schema>)>);
}

/// Adds the required `type` property, fixed to `tag`, to a variant's object schema.
pub fn with_tag(schema: RefOr<Schema>, tag: &str) -> RefOr<Schema> {
    match schema {
        RefOr::T(Schema::Object(mut object)) => {
            object.properties.insert(
                "type".to_string(),
                ObjectBuilder::new()
                    .schema_type(Type::String)
                    .enum_values(Some([tag]))
                    .into(),
            );
            object.required.insert(0, "type".to_string());
            RefOr::T(Schema::Object(object))
        }
        other => other,
    }
}

/// `oneOf` the named variants, with a discriminator mapping each tag to its schema.
pub fn one_of(tags: &[&str], description: &str) -> RefOr<Schema> {
    let mut discriminator = Discriminator::new("type");
    let mut builder = OneOfBuilder::new().description(Some(description));
    for tag in tags {
        builder = builder.item(Ref::from_schema_name(*tag));
        discriminator
            .mapping
            .insert(tag.to_string(), format!("#/components/schemas/{tag}"));
    }
    RefOr::T(Schema::OneOf(
        builder.discriminator(Some(discriminator)).build(),
    ))
}

/// Declares a tagged union over structs of the same names as its variants:
/// `tagged_union! { /// doc \n pub enum Command { TurnUpCard, AddToWall } }`.
#[macro_export]
macro_rules! tagged_union {
    ($(#[$meta:meta])* $vis:vis enum $name:ident { $($(#[$vmeta:meta])* $variant:ident),+ $(,)? }) => {
        $(#[$meta])*
        #[derive(Clone, Debug, PartialEq, Eq, ::serde::Serialize, ::serde::Deserialize)]
        #[serde(tag = "type")]
        $vis enum $name {
            $($(#[$vmeta])* $variant($variant)),+
        }

        impl $crate::schema::TaggedUnion for $name {
            const TAGS: &'static [&'static str] = &[$(stringify!($variant)),+];

            fn tag(&self) -> &'static str {
                match self {
                    $(Self::$variant(_) => stringify!($variant)),+
                }
            }

            fn variant_schemas(
                out: &mut Vec<(String, ::utoipa::openapi::RefOr<::utoipa::openapi::schema::Schema>)>,
            ) {
                $(
                    <$variant as ::utoipa::ToSchema>::schemas(out);
                    out.push((
                        stringify!($variant).to_string(),
                        $crate::schema::with_tag(
                            <$variant as ::utoipa::PartialSchema>::schema(),
                            stringify!($variant),
                        ),
                    ));
                )+
            }
        }

        impl ::utoipa::PartialSchema for $name {
            fn schema() -> ::utoipa::openapi::RefOr<::utoipa::openapi::schema::Schema> {
                $crate::schema::one_of(
                    <$name as $crate::schema::TaggedUnion>::TAGS,
                    concat!("One of the variants, told apart by `type`: ", stringify!($name), "."),
                )
            }
        }

        impl ::utoipa::ToSchema for $name {
            fn schemas(
                out: &mut Vec<(String, ::utoipa::openapi::RefOr<::utoipa::openapi::schema::Schema>)>,
            ) {
                <$name as $crate::schema::TaggedUnion>::variant_schemas(out);
            }
        }

        $(
            impl From<$variant> for $name {
                fn from(v: $variant) -> Self {
                    Self::$variant(v)
                }
            }
        )+
    };
}
