from nicegui.testing import User


async def test_library_lists_the_demo_tasks(user: User) -> None:
    await user.open("/")
    await user.should_see("The water cycle")
    await user.should_see("Photosynthesis: the gas plants take in")
