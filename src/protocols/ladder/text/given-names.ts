/**
 * Given names the rules may write as people (issue 36: a question's capitalised words are not all
 * people, "A friend of Earth owns 7 board games"). A name outside this list is not written as a
 * person; titled names ("Mr. Tan") are people by their title. The list: common English given names
 * and those of the grade-school seeds' people (docs/ladder-families.md#people).
 */
const NAMES = `
Aaron Abby Adam Adrian Aisha Alan Albert Alex Alexander Alice Alicia Alison Allan Allen Amanda Amber Amelia Amir Amy Ana
Andrea Andrew Andy Angela Angie Anita Ann Anna Anne Annie Anthony Antonio Arthur Artie Ashley Aubrey Audrey Ava Barbara Becky
Ben Benjamin Benny Beth Betty Bill Billie Billy Bob Bobby Brad Brandon Brenda Brendan Brett Brian Bruce Caleb Cameron Candy
Carl Carla Carlos Carmen Carol Caroline Carter Cassie Catherine Charles Charlie Charlotte Chester Chloe Chris Christina
Christine Christopher Cindy Claire Cole Colin Connor Craig Cynthia Daisy Dale Dan Dana Daniel Danny Dave David Dawn Dax
Deandre Debbie Denise Dennis Derek Dev Diana Diane Dominic Donna Doris Dorothy Doug Dylan Ed Eddie Edward Eileen Elena Eli
Elijah Elise Eliza Elizabeth Ella Ellen Emily Emma Eric Erica Erin Ethan Eva Evan Faith Felix Fiona Frank Frankie Fred Gabriel
Gary George Gina Grace Greg Gloria Hailey Hannah Harold Harry Hazel Heather Helen Henry Holly Hugo Ian Irene Isaac Isabel
Isabella Ivan Jack Jackie Jackson Jacob Jade Jaime James Jamie Jane Janet Janice Jasmine Jason Jasper Jay Jean Jeff Jenna
Jennifer Jenny Jeremy Jerry Jesse Jessica Jewel Jill Jim Jimmy Joan Joe Joel John Johnny Jon Jonathan Jordan Jose Joseph
Josh Joshua Joy Juan Judy Julia Julian Julie Jun June Justin Karen Kate Katie Katy Kayla Keiko Keith Kelly Ken Kevin Kim
Kyle Lamar Laura Lauren Leah Lena Leo Leon Liam Lila Lily Linda Lisa Logan Lucas Lucy Luis Luke Lydia Maddie Madison Maggie
Mandy Marco Margaret Maria Marie Mark Martha Martin Mary Mason Matt Matthew Max Maya Megan Mei Melissa Mia Michael Michelle
Mike Miguel Mila Molly Monica Morgan Nadia Nancy Naomi Nate Nathan Neil Nick Nicole Nikita Nina Noah Nora Olivia Omar Oscar
Owen Pam Pat Patricia Patrick Paul Paula Peggy Penny Pete Peter Phil Philip Pierson Priya Rachel Ralph Raphael Ray Rebecca
Richard Rick Rita Rob Robert Robin Roger Ron Rosa Rose Ruby Russell Ruth Ryan Sally Sam Samantha Samuel Sandra Sara Sarah
Scott Sean Sebastian Seth Shawn Sheila Shiela Sofia Sophia Sophie Stacy Stella Stephanie Steve Steven Sue Sunny Susan Tara
Teddy Terry Thaddeus Theo Thomas Tim Timothy Tina Toby Todd Tom Tommy Tony Toula Tracy Trevor Tyler Uma Valerie Vanessa
Victor Victoria Vincent Violet Walter Watson Wendy Will William Yara Yuki Zach Zara Zoe
`;

export const GIVEN_NAMES: ReadonlySet<string> = new Set(NAMES.split(/\s+/).filter(Boolean));

const TITLE = /^(?:Mr\.|Mrs\.|Ms\.|Dr\.|Prince|Princess|King|Queen|Uncle|Aunt)\s/;

/** Whether a name the rules found ("Toula", "Mr. Tan") may be written as a person. */
export function isPersonName(name: string): boolean {
  return TITLE.test(name) || GIVEN_NAMES.has(name);
}
