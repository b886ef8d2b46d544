//! Every component the plugin writes is registered and reflects: an inspector finds it in
//! the `AppTypeRegistry`, reads its fields by path, and writes them back.

use std::any::TypeId;

use bevy::ecs::reflect::{AppTypeRegistry, ReflectComponent};
use bevy::prelude::*;
use bevy::reflect::{FromReflect, GetPath, ReflectRef};
use bevy::time::TimeUpdateStrategy;
use bevy_gridwalk::core::sim::OnArrival;
use bevy_gridwalk::core::{Grid, Pos};
use bevy_gridwalk::prelude::*;

fn app() -> App {
    let mut app = App::new();
    app.add_plugins(MinimalPlugins)
        .add_plugins(GridwalkPlugin::on_grid(Grid::new(8, 3).unwrap()))
        .insert_resource(TimeUpdateStrategy::FixedTimesteps(1))
        .insert_resource(Time::<Fixed>::from_hz(TickClock::DEFAULT_RATE));
    app
}

/// The component `T` of `e`, as an inspector reaches it: through the registry, by type id.
fn reflected<T: Component>(app: &App, e: Entity, f: impl FnOnce(&dyn Reflect)) {
    let registry = app.world().resource::<AppTypeRegistry>().read();
    let registration = registry.get(TypeId::of::<T>()).expect("registered");
    let component = registration
        .data::<ReflectComponent>()
        .expect("a component");
    let entity = app.world().entity(e);
    f(component.reflect(entity).expect("on the entity"));
}

fn field<V: Copy + Reflect>(r: &dyn Reflect, path: &str) -> V {
    *r.path::<V>(path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn variant(r: &dyn Reflect, path: &str) -> String {
    let v = r.reflect_path(path).unwrap();
    match v.reflect_ref() {
        ReflectRef::Enum(e) => e.variant_name().to_owned(),
        _ => panic!("{path} is no enum"),
    }
}

#[test]
fn the_components_reflect_and_read_by_path() {
    let mut app = app();
    let e = (app.world_mut())
        .spawn((
            GridPos(Pos::new(1, 2)),
            Goal(Pos::new(6, 0)),
            ArrivalPolicy(OnArrival::Patrol),
            NextCell(None),
            GridPath::default(),
        ))
        .id();
    for _ in 0..3 {
        app.update();
    }
    let (pos, last, next, id, label) = {
        let w = app.world();
        let a = w.get::<GridAgent>(e).unwrap();
        let pos = w.get::<GridPos>(e).unwrap().0;
        (
            pos,
            w.get::<LastCell>(e).unwrap().0,
            w.get::<NextCell>(e).unwrap().0,
            a.id,
            a.label,
        )
    };
    let next = next.expect("walking: a next cell");
    assert_ne!(pos, last, "it moved");
    reflected::<GridPos>(&app, e, |r| {
        assert_eq!(
            (field::<u32>(r, ".0.x"), field::<u32>(r, ".0.y")),
            (pos.x, pos.y)
        );
    });
    reflected::<LastCell>(&app, e, |r| assert_eq!(field::<u32>(r, ".0.x"), last.x));
    reflected::<Goal>(&app, e, |r| {
        assert_eq!((field::<u32>(r, ".0.x"), field::<u32>(r, ".0.y")), (6, 0));
    });
    reflected::<NextCell>(&app, e, |r| {
        assert_eq!(variant(r, ".0"), "Some");
        assert_eq!(field::<u32>(r, ".0.0.x"), next.x);
        assert_eq!(field::<u32>(r, ".0.0.y"), next.y);
    });
    reflected::<GridAgent>(&app, e, |r| {
        assert_eq!(
            (field::<u32>(r, "id"), field::<u32>(r, "label")),
            (id, label)
        );
    });
    reflected::<AgentState>(&app, e, |r| assert_eq!(variant(r, ".0"), "Walking"));
    reflected::<ArrivalPolicy>(&app, e, |r| assert_eq!(variant(r, ".0"), "Patrol"));
    let path = app.world().get::<GridPath>(e).unwrap().0.clone();
    assert!(path.len() > 2, "a path to walk: {path:?}");
    assert_eq!((path[0], path[1]), (pos, next), "its cell, then its next");
    reflected::<GridPath>(&app, e, |r| {
        assert!(r.reflect_type_path().ends_with("GridPath"));
        let ReflectRef::List(cells) = r.reflect_path(".0").unwrap().reflect_ref() else {
            panic!("a path's cells are a list");
        };
        assert_eq!(cells.len(), path.len());
        for (i, p) in path.iter().enumerate() {
            let (x, y) = (format!(".0[{i}].x"), format!(".0[{i}].y"));
            assert_eq!((field::<u32>(r, &x), field::<u32>(r, &y)), (p.x, p.y));
        }
        // A copy made through reflection alone (what a scene or an inspector's undo does)
        // holds the same cells.
        let copy = GridPath::from_reflect(r.as_partial_reflect()).expect("rebuilt");
        assert_eq!(copy.0, path);
    });
}

#[test]
fn a_goal_written_through_reflection_retargets() {
    let mut app = app();
    let e = (app.world_mut())
        .spawn((GridPos(Pos::new(0, 0)), Goal(Pos::new(7, 0))))
        .id();
    for _ in 0..2 {
        app.update();
    }
    {
        let registry = app.world().resource::<AppTypeRegistry>().clone();
        let registry = registry.read();
        let component = (registry.get(TypeId::of::<Goal>()).unwrap())
            .data::<ReflectComponent>()
            .unwrap();
        let mut entity = app.world_mut().entity_mut(e);
        let mut goal = component.reflect_mut(&mut entity).unwrap();
        *goal.path_mut::<u32>(".0.y").unwrap() = 2;
    }
    for _ in 0..12 {
        app.update();
    }
    assert_eq!(app.world().get::<GridPos>(e).unwrap().0, Pos::new(7, 2));
    assert_eq!(
        app.world().get::<AgentState>(e).unwrap().0,
        AgentStatus::Arrived
    );
}
