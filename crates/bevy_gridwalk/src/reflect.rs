//! Reflection of the core's types that the components hold, for inspectors: `gridwalk-core`
//! has no Bevy, so each type it lends a component ([`Pos`], [`AgentStatus`], [`OnArrival`],
//! [`Facing`], and a path's list of cells) is reflected here through a remote wrapper, and
//! the components name the wrapper on their fields (`#[reflect(remote = ...)]`). A
//! component's fields read by path as its own would: `GridPos`'s `".0.x"`, `AgentState`'s
//! variant, `GridPath`'s `".0[1].y"`.

use bevy::reflect::reflect_remote;
use gridwalk_core::sim::{AgentStatus, OnArrival};
use gridwalk_core::{Facing, Pos};

/// [`Pos`] as reflection sees it: its column and row.
#[reflect_remote(Pos)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PosReflect {
    /// Column, from 0 at the left.
    pub x: u32,
    /// Row, from 0 at the top.
    pub y: u32,
}

/// An optional cell, as [`NextCell`](crate::NextCell) holds it.
pub type MaybePos = Option<Pos>;

/// [`MaybePos`] as reflection sees it.
#[reflect_remote(MaybePos)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MaybePosReflect {
    /// No cell.
    None,
    /// A cell.
    Some(#[reflect(remote = PosReflect)] Pos),
}

/// [`AgentStatus`] as reflection sees it, variant for variant.
#[reflect_remote(AgentStatus)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AgentStatusReflect {
    /// It has a path and moves along it.
    Walking,
    /// It stands on its goal.
    Arrived,
    /// Its goal is unreachable; it waits until a path opens.
    NoPath,
    /// Its plan is not ready (the planning budget ran out).
    Planning,
    /// Crowd mode: another agent stands on its goal.
    Waiting,
    /// Crowd mode: it has not come closer to its goal for a while.
    Stuck,
}

/// [`Facing`] as reflection sees it, variant for variant.
#[reflect_remote(Facing)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FacingReflect {
    /// Toward growing x.
    East,
    /// Toward growing y (down the map).
    South,
    /// Toward x = 0.
    West,
    /// Toward y = 0 (up the map).
    North,
}

/// [`OnArrival`] as reflection sees it, variant for variant.
#[reflect_remote(OnArrival)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OnArrivalReflect {
    /// It stays there.
    Stay,
    /// It walks to a new random goal it can reach.
    Wander,
    /// It walks back to its start, then to its goal again, and so on.
    Patrol,
}

/// A list of cells, as [`GridPath`](crate::GridPath) holds them.
pub type Cells = Vec<Pos>;

/// [`Cells`] as reflection sees them: a list whose items are [`PosReflect`]s, so an inspector
/// lists a path's cells and reads each one's `x` and `y` (`GridPath`'s `".0[1].x"`).
///
/// `reflect_remote` mirrors a type's fields, and a `Vec`'s are private: this wrapper is
/// written by hand, as bevy_reflect writes its own `Vec<T>`'s, each cell lent out as the
/// [`PosReflect`] it is laid out as.
#[derive(Clone, Debug, Default, PartialEq, Eq, bevy::reflect::TypePath)]
#[repr(transparent)]
pub struct CellsReflect(pub Cells);

mod cells {
    use bevy::reflect::list::{
        List, ListInfo, ListIter, list_apply, list_hash, list_partial_cmp, list_partial_eq,
        list_try_apply,
    };
    use bevy::reflect::utility::NonGenericTypeInfoCell;
    use bevy::reflect::{
        ApplyError, FromReflect, FromType, GetTypeRegistration, PartialReflect, Reflect,
        ReflectCloneError, ReflectFromPtr, ReflectFromReflect, ReflectKind, ReflectMut,
        ReflectOwned, ReflectRef, ReflectRemote, TypeInfo, TypeRegistration, TypeRegistry, Typed,
    };
    use gridwalk_core::Pos;

    use super::{Cells, CellsReflect, PosReflect};

    /// A reflected cell as a [`Pos`]: a [`PosReflect`], or anything that reads as one.
    fn cell(value: Box<dyn PartialReflect>) -> Pos {
        match PosReflect::take_from_reflect(value) {
            Ok(p) => p.into_remote(),
            Err(value) => panic!("a cell, not a {}", value.reflect_type_path()),
        }
    }

    /// Each cell as reflection lends it.
    fn boxed(p: Pos) -> Box<dyn PartialReflect> {
        Box::new(PosReflect::into_wrapper(p))
    }

    impl List for CellsReflect {
        fn get(&self, index: usize) -> Option<&dyn PartialReflect> {
            (self.0.get(index)).map(|p| PosReflect::as_wrapper(p) as &dyn PartialReflect)
        }

        fn get_mut(&mut self, index: usize) -> Option<&mut dyn PartialReflect> {
            (self.0.get_mut(index))
                .map(|p| PosReflect::as_wrapper_mut(p) as &mut dyn PartialReflect)
        }

        fn insert(&mut self, index: usize, element: Box<dyn PartialReflect>) {
            self.0.insert(index, cell(element));
        }

        fn remove(&mut self, index: usize) -> Box<dyn PartialReflect> {
            boxed(self.0.remove(index))
        }

        fn push(&mut self, value: Box<dyn PartialReflect>) {
            self.0.push(cell(value));
        }

        fn pop(&mut self) -> Option<Box<dyn PartialReflect>> {
            self.0.pop().map(boxed)
        }

        fn len(&self) -> usize {
            self.0.len()
        }

        fn iter(&self) -> ListIter<'_> {
            ListIter::new(self)
        }

        fn drain(&mut self) -> Vec<Box<dyn PartialReflect>> {
            self.0.drain(..).map(boxed).collect()
        }
    }

    impl PartialReflect for CellsReflect {
        fn get_represented_type_info(&self) -> Option<&'static TypeInfo> {
            Some(<Self as Typed>::type_info())
        }

        fn into_partial_reflect(self: Box<Self>) -> Box<dyn PartialReflect> {
            self
        }

        fn as_partial_reflect(&self) -> &dyn PartialReflect {
            self
        }

        fn as_partial_reflect_mut(&mut self) -> &mut dyn PartialReflect {
            self
        }

        fn try_into_reflect(self: Box<Self>) -> Result<Box<dyn Reflect>, Box<dyn PartialReflect>> {
            Ok(self)
        }

        fn try_as_reflect(&self) -> Option<&dyn Reflect> {
            Some(self)
        }

        fn try_as_reflect_mut(&mut self) -> Option<&mut dyn Reflect> {
            Some(self)
        }

        fn reflect_kind(&self) -> ReflectKind {
            ReflectKind::List
        }

        fn reflect_ref(&self) -> ReflectRef<'_> {
            ReflectRef::List(self)
        }

        fn reflect_mut(&mut self) -> ReflectMut<'_> {
            ReflectMut::List(self)
        }

        fn reflect_owned(self: Box<Self>) -> ReflectOwned {
            ReflectOwned::List(self)
        }

        fn reflect_clone(&self) -> Result<Box<dyn Reflect>, ReflectCloneError> {
            Ok(Box::new(self.clone()))
        }

        fn reflect_hash(&self) -> Option<u64> {
            list_hash(self)
        }

        fn reflect_partial_eq(&self, value: &dyn PartialReflect) -> Option<bool> {
            list_partial_eq(self, value)
        }

        fn reflect_partial_cmp(&self, value: &dyn PartialReflect) -> Option<core::cmp::Ordering> {
            list_partial_cmp(self, value)
        }

        fn apply(&mut self, value: &dyn PartialReflect) {
            list_apply(self, value);
        }

        fn try_apply(&mut self, value: &dyn PartialReflect) -> Result<(), ApplyError> {
            list_try_apply(self, value)
        }

        fn debug(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
            core::fmt::Debug::fmt(&self.0, f)
        }
    }

    impl Reflect for CellsReflect {
        fn into_any(self: Box<Self>) -> Box<dyn core::any::Any> {
            self
        }

        fn as_any(&self) -> &dyn core::any::Any {
            self
        }

        fn as_any_mut(&mut self) -> &mut dyn core::any::Any {
            self
        }

        fn into_reflect(self: Box<Self>) -> Box<dyn Reflect> {
            self
        }

        fn as_reflect(&self) -> &dyn Reflect {
            self
        }

        fn as_reflect_mut(&mut self) -> &mut dyn Reflect {
            self
        }

        fn set(&mut self, value: Box<dyn Reflect>) -> Result<(), Box<dyn Reflect>> {
            *self = value.take()?;
            Ok(())
        }
    }

    impl Typed for CellsReflect {
        fn type_info() -> &'static TypeInfo {
            static CELL: NonGenericTypeInfoCell = NonGenericTypeInfoCell::new();
            CELL.get_or_set(|| TypeInfo::List(ListInfo::new::<Self, PosReflect>()))
        }
    }

    impl GetTypeRegistration for CellsReflect {
        fn get_type_registration() -> TypeRegistration {
            let mut registration = TypeRegistration::of::<Self>();
            registration.insert::<ReflectFromPtr>(FromType::<Self>::from_type());
            registration.insert::<ReflectFromReflect>(FromType::<Self>::from_type());
            registration
        }

        fn register_type_dependencies(registry: &mut TypeRegistry) {
            registry.register::<PosReflect>();
        }
    }

    impl FromReflect for CellsReflect {
        fn from_reflect(reflect: &dyn PartialReflect) -> Option<Self> {
            let list = reflect.reflect_ref().as_list().ok()?;
            let cell = |c| PosReflect::from_reflect(c).map(PosReflect::into_remote);
            list.iter()
                .map(cell)
                .collect::<Option<Cells>>()
                .map(CellsReflect)
        }
    }

    impl ReflectRemote for CellsReflect {
        type Remote = Cells;

        fn as_remote(&self) -> &Cells {
            &self.0
        }

        fn as_remote_mut(&mut self) -> &mut Cells {
            &mut self.0
        }

        fn into_remote(self) -> Cells {
            self.0
        }

        fn as_wrapper(remote: &Cells) -> &Self {
            // SAFETY: `CellsReflect` is `repr(transparent)` over `Cells`, so both have one
            // layout, and the reference keeps `remote`'s lifetime.
            unsafe { &*(remote as *const Cells as *const CellsReflect) }
        }

        fn as_wrapper_mut(remote: &mut Cells) -> &mut Self {
            // SAFETY: as in `as_wrapper`.
            unsafe { &mut *(remote as *mut Cells as *mut CellsReflect) }
        }

        fn into_wrapper(remote: Cells) -> Self {
            CellsReflect(remote)
        }
    }
}
