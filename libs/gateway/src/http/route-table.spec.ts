import 'reflect-metadata';
import { COMMAND_TOPICS } from '@consign/contracts';
import { API_ROUTE_GROUPS } from '../gateway.module';
import { readRouteGroups, urlOf } from './route-table';

describe('the route table', () => {
  const groups = readRouteGroups(API_ROUTE_GROUPS);
  const routes = groups.flatMap((group) => group.routes.map((route) => ({ group, route })));

  it('holds every operation of the client interface once', () => {
    expect(routes.length).toBeGreaterThanOrEqual(45);
    const operations = routes.map(({ group, route }) => `${route.method} ${urlOf(group, route)}`);
    expect(new Set(operations).size).toBe(operations.length);
    const names = routes.map(({ group, route }) => `${group.name}.${route.name}`);
    expect(new Set(names).size).toBe(names.length);
  });

  it('names, on each route that forwards a command, a topic the contracts define', () => {
    const forwarded = routes.filter(({ route }) => route.topic !== undefined);
    expect(forwarded.length).toBeGreaterThan(25);
    const unknown = forwarded
      .map(({ route }) => route.topic)
      .filter((topic) => !COMMAND_TOPICS.includes(topic!));
    expect(unknown).toEqual([]);
  });

  it('makes every path parameter of a route one its definition parses', () => {
    const mismatched = routes.flatMap(({ group, route }) => {
      const inPath = [...urlOf(group, route).matchAll(/:(\w+)/g)].map((match) => match[1]);
      const defined = Object.keys(route.params ?? {});
      return inPath.join() === defined.join() ? [] : [`${group.name}.${route.name}`];
    });
    expect(mismatched).toEqual([]);
  });
});
